import { useEffect, useRef, useState } from 'react'
import { callTool, toBackendError, type BackendError, type ReadFileResult } from '../bridge'
import { CodeViewer } from '../components/code-viewer'
import { ErrorNotice } from '../components/error-notice'
import { fileChanged } from '../lib/fs-changes'
import { absolute, baseName, humanSize } from '../lib/paths'
import { useChanges, type ChangeFeed } from '../stores/live-project'
import type { Target } from './workbench'

// previewLines is how much of a file too large for a whole read the viewer shows.
const previewLines = 5000

interface Props {
  root: string
  target: Target | null
  feed?: ChangeFeed
}

type State = { kind: 'empty' } | { kind: 'loading' } | { kind: 'file'; file: ReadFileResult; partial: boolean } | { kind: 'error'; error: BackendError }

// FilePane reads the selected file through the backend and shows it, or why it cannot. When the file changes on
// disk while it is shown (the user's editor, a build, the agent) it is read again in place: the viewer is
// read-only, so there is nothing of the user's to lose, and a banner says it happened.
export function FilePane({ root, target, feed }: Props) {
  const [state, setState] = useState<State>({ kind: 'empty' })
  const [version, setVersion] = useState(0)
  const [reloaded, setReloaded] = useState<Date | null>(null)
  const shown = useRef<string | null>(null)
  const rel = target?.rel ?? null
  useChanges(feed, (changes) => {
    if (rel && fileChanged(rel, changes)) setVersion((v) => v + 1)
  })

  useEffect(() => {
    if (!rel) {
      setState({ kind: 'empty' })
      shown.current = null
      return
    }
    let live = true
    const again = shown.current === rel
    if (!again) {
      setState({ kind: 'loading' })
      setReloaded(null)
    }
    const path = absolute(root, rel)
    callTool('read_file', { path })
      .then((file) => ({ file, partial: false }))
      .catch(async (e: unknown) => {
        const err = toBackendError(e)
        if (err.code !== 'too_large') throw err
        return { file: await callTool('read_file', { path, offset: 1, limit: previewLines }), partial: true }
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
  }, [root, rel, version])

  return (
    <section className="file-pane" data-testid="file-pane">
      <header className="file-header">
        <span className="file-name" data-testid="file-name">{rel ?? ''}</span>
        {state.kind === 'file' ? (
          <span className="file-meta" data-testid="file-meta">
            {humanSize(state.file.size)} · {state.file.total_lines} lines · {state.file.line_ending.toUpperCase()}
          </span>
        ) : null}
      </header>
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
      {state.kind === 'file' ? (
        <CodeViewer fileName={baseName(state.file.path)} docKey={state.file.path} text={state.file.content} reveal={target?.line ? { line: target.line, seq: target.seq } : undefined} />
      ) : null}
    </section>
  )
}
