import { useEffect, useLayoutEffect, useRef, useState } from 'react'
import { resultImage } from '../agent/images'
import { ResultImage } from '../components/result-image'
import { toBackendError, type BackendError, type ReadFileResult } from '../bridge'
import { useBridge } from '../stores/project-scope'
import { CodeViewer } from '../components/code-viewer'
import { ErrorNotice } from '../components/error-notice'
import { fileChanged } from '../lib/fs-changes'
import { absolute, baseName, humanSize } from '../lib/paths'
import { useChanges, type ChangeFeed } from '../stores/live-project'
import type { Target } from './workbench'
import { useSequence, type Fresh } from '../lib/use-sequence'

// previewLines is how much of a file too large for a whole read the viewer shows.
const previewLines = 5000

interface Props {
  root: string
  target: Target | null
  feed?: ChangeFeed
  // onMention hands "@path:a-b" for the selected lines to the agent's request box.
  onMention?: (text: string) => void
}

type State = { kind: 'empty' } | { kind: 'loading' } | { kind: 'file'; file: ReadFileResult; partial: boolean } | { kind: 'error'; error: BackendError }

// sha256 is the hex SHA-256 of text as UTF-8: what the editor loaded, for a save that must not overwrite a change
// made on disk since.
async function sha256(text: string): Promise<string> {
  const d = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, '0')).join('')
}

// FilePane reads the selected file through the backend and shows it in an editor, or why it cannot. Ctrl+S saves
// through write_file, so the user's edit is snapshotted and undoable like the agent's, and the agent's next edit
// of the file is refused as stale until it reads it again. When the file changes on disk while it is shown (a
// build, the agent) it is read again in place, unless it holds unsaved edits: then a banner offers the choice,
// and a save over a changed file is refused rather than lose either side.
export function FilePane({ root, target, feed, onMention }: Props) {
  const { userCall } = useBridge()
  const [state, setState] = useState<State>(target ? { kind: 'loading' } : { kind: 'empty' })
  const [version, setVersion] = useState(0)
  const [reloaded, setReloaded] = useState<Date | null>(null)
  const [draft, setDraft] = useState<string | null>(null) // unsaved edits
  const [conflict, setConflict] = useState(false) // the file changed on disk while draft was unsaved
  const [saved, setSaved] = useState<{ at: Date; backup?: string } | null>(null)
  const [saveError, setSaveError] = useState<BackendError | null>(null)
  // lost: a save that failed after another file was opened; said over that file, since the edits are gone.
  const [lost, setLost] = useState<BackendError | null>(null)
  const [revision, setRevision] = useState(0)
  const [lines, setLines] = useState<{ from: number; to: number } | null>(null)
  const shown = useRef<string | null>(null)
  const draftRef = useRef<string | null>(null)
  useLayoutEffect(() => {
    draftRef.current = draft
  })
  const rel = target?.rel ?? null
  // The text this pane last saved: the watcher reports that write too, and keys typed while it was on its way are
  // unsaved edits then, which must not be told the file changed on disk when the change was the save itself.
  const savedText = useRef<string | null>(null)
  useChanges(feed, (changes) => {
    if (!rel || !fileChanged(rel, changes)) return
    if (draftRef.current === null) return setVersion((v) => v + 1)
    const mine = savedText.current
    if (mine === null) return setConflict(true)
    userCall('read_file', { path: absolute(root, rel) })
      .then((f) => f.content !== mine && setConflict(true))
      .catch(() => setConflict(true))
  })
  // Another file starts afresh: set while rendering, as React advises for state that follows a prop.
  const [shownRel, setShownRel] = useState(rel)
  if (shownRel !== rel) {
    setShownRel(rel)
    setDraft(null)
    setLines(null)
    setConflict(false)
    setSaved(null)
    setSaveError(null)
    setLost(null)
    setState(rel ? { kind: 'loading' } : { kind: 'empty' })
    setReloaded(null)
  }

  useEffect(() => {
    if (!rel) {
      shown.current = null
      return
    }
    let live = true
    const again = shown.current === rel
    const path = absolute(root, rel)
    userCall('read_file', { path })
      .then((file) => ({ file, partial: false }))
      .catch(async (e: unknown) => {
        const err = toBackendError(e)
        if (err.code !== 'too_large') throw err
        return { file: await userCall('read_file', { path, offset: 1, limit: previewLines }), partial: true }
      })
      .then(({ file, partial }) => {
        if (!live) return
        shown.current = rel
        setState((prev) => {
          if (again && prev.kind === 'file' && prev.file.content === file.content && prev.partial === partial) return prev
          if (again) setReloaded(new Date())
          return { kind: 'file', file, partial }
        })
      })
      .catch((e: unknown) => {
        if (!live) return
        if (again) setReloaded(new Date())
        setState({ kind: 'error', error: toBackendError(e) })
      })
    return () => {
      live = false
    }
  }, [root, rel, version, userCall])

  // shownFile says whether the file shown is still the one shown when it was taken: a save's answer belongs to the
  // file it saved, and once another file is shown it must not put the saved file's text in the pane; a failure is
  // still said, as the save of that file. Each file shown is a step of the sequence; saves of one file are not.
  const nextFile = useSequence()
  const shownFile = useRef<Fresh>(() => true)
  useLayoutEffect(() => {
    shownFile.current = nextFile()
    savedText.current = null
  }, [rel, nextFile])

  const editable = state.kind === 'file' && !state.partial
  const save = async (force = false) => {
    if (state.kind !== 'file' || draft === null || !rel) return
    const content = draft
    const sameFile = shownFile.current
    try {
      const out = await userCall('write_file', { path: absolute(root, rel), content, ...(force ? {} : { expected_sha256: await sha256(state.file.content) }) })
      if (!sameFile()) return
      savedText.current = content
      setState({ kind: 'file', file: { ...state.file, content, size: new TextEncoder().encode(content).length }, partial: false })
      setDraft((d) => (d === content ? null : d)) // keys typed while it saved stay unsaved edits
      setConflict(false)
      setSaveError(null)
      setSaved({ at: new Date(), backup: out.backup })
    } catch (e) {
      const err = toBackendError(e)
      if (!sameFile()) {
        setLost({ ...err, message: `${rel} was not saved: ${err.message}` })
        return
      }
      setSaveError(err)
      if (err.code === 'stale_file') setConflict(true)
    }
  }
  const discard = () => {
    setRevision((r) => r + 1)
    setDraft(null)
    setConflict(false)
    setSaveError(null)
    setVersion((v) => v + 1)
  }

  return (
    <section className="file-pane" data-testid="file-pane">
      <header className="file-header">
        <span className="file-name" data-testid="file-name">{rel ?? ''}</span>
        {state.kind === 'file' ? (
          <span className="file-meta" data-testid="file-meta">
            {humanSize(state.file.size)} · {state.file.total_lines} lines · {state.file.line_ending.toUpperCase()}
          </span>
        ) : null}
        {lines && rel && onMention ? (
          <button className="link-button" onClick={() => onMention(`@${rel}:${lines.from}-${lines.to}`)} data-testid="file-mention" title="Attach these lines to the next request">
            Ask about lines {lines.from}–{lines.to}
          </button>
        ) : null}
        {draft !== null ? (
          <>
            <span className="file-dirty" data-testid="file-dirty">● modified</span>
            <button className="link-button" onClick={() => void save()} data-testid="file-save" title="Save (Ctrl+S); a snapshot is taken first">
              Save
            </button>
            <button className="link-button" onClick={discard} data-testid="file-discard">
              Discard
            </button>
          </>
        ) : saved ? (
          <span className="file-saved muted" data-testid="file-saved">
            saved {saved.at.toLocaleTimeString()}
            {saved.backup ? ` · snapshot ${saved.backup.slice(0, 8)}` : ''}
          </span>
        ) : null}
      </header>
      {conflict ? (
        <div className="file-banner conflict" data-testid="file-conflict">
          The file changed on disk while you were editing it.{' '}
          <button className="link-button" onClick={discard} data-testid="conflict-reload">
            Reload (drop my edits)
          </button>{' '}
          <button className="link-button" onClick={() => void save(true)} data-testid="conflict-overwrite">
            Save mine over it
          </button>
        </div>
      ) : null}
      {saveError && saveError.code !== 'stale_file' ? <ErrorNotice error={saveError} /> : null}
      {lost ? (
        <div data-testid="file-save-lost">
          <ErrorNotice error={lost} />
        </div>
      ) : null}
      {reloaded ? (
        <div className="file-banner" data-testid="file-reloaded">
          {state.kind === 'error' ? 'Changed on disk' : 'Changed on disk, reloaded'} at {reloaded.toLocaleTimeString()}.
          <button className="link-button" onClick={() => setReloaded(null)} aria-label="Dismiss">
            ✕
          </button>
        </div>
      ) : null}
      {state.kind === 'file' && state.partial ? (
        <div className="file-banner" data-testid="file-partial">
          Large file: showing lines {state.file.start_line}–{state.file.end_line} of {state.file.total_lines}.
        </div>
      ) : null}
      {state.kind === 'empty' ? <div className="placeholder">Select a file in the tree to view it.</div> : null}
      {state.kind === 'loading' ? <div className="placeholder">Loading…</div> : null}
      {state.kind === 'error' ? <ErrorNotice error={state.error} /> : null}
      {state.kind === 'file' && resultImage(state.file) ? <ResultImage output={state.file} /> : null}
      {state.kind === 'file' && !resultImage(state.file) ? (
        <CodeViewer
          fileName={baseName(state.file.path)}
          docKey={state.file.path}
          text={state.file.content}
          reveal={target?.line ? { line: target.line, seq: target.seq } : undefined}
          editable={editable}
          revision={revision}
          onEdit={(t) => setDraft(t === state.file.content ? null : t)}
          onSave={() => void save()}
          onSelectLines={setLines}
        />
      ) : null}
    </section>
  )
}
