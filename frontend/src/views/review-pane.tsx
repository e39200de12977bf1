import { useCallback, useEffect, useState } from 'react'
import { toBackendError } from '../bridge'
import { useBridge } from '../stores/project-scope'
import { changedLines, diffSummary, hunkLine, parseDiff, revertHunk, type FileDiff, type Hunk, type Range } from '../agent/turn-review'
import { absolute } from '../lib/paths'

// ReviewActions are what the review does through the conversation it belongs to.
export interface ReviewActions {
  // restore puts paths back as they were in snapshot from, with a notice and its Undo in the conversation.
  restore: (from: string, paths: string[], title: string) => Promise<void>
  // comment adds `path:line: text` to the next request.
  comment: (text: string) => void
  // tell lets the model know of a change the user made (a hunk reverted), naming its snapshot for History.
  tell: (note: string, backup?: string, snapshotName?: string) => void
}

// ReviewRequest is what the centre pane reviews: a turn (its request's title and range) and the conversation.
export interface ReviewRequest {
  seq: number
  root: string
  title: string
  turn?: Range
  conversation?: Range
  scope: 'turn' | 'conversation'
  actions: ReviewActions
}

type Loaded = { key: string } & ({ state: 'loading' } | { state: 'ready'; files: FileDiff[] } | { state: 'failed'; message: string })

// Reverted is a change the user took back here, with the snapshot its write took first (what Undo puts back).
interface Reverted {
  key: string
  path: string
  what: string
  backup?: string
  undone?: boolean
}

// shift is how many more lines the hunk added than removed before its line k: an unchanged line's number before
// the change is its number after, less that.
function shift(h: Hunk, k: number): number {
  let d = 0
  for (const l of h.lines.slice(0, k)) d += l[0] === '+' ? 1 : l[0] === '-' ? -1 : 0
  return d
}

async function sha256(text: string): Promise<string> {
  const d = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, '0')).join('')
}

// ReviewPane shows what a turn (or the whole conversation) changed as one coloured diff, file by file and hunk by
// hunk, commands' changes included. *Revert hunk* writes the file with that hunk taken back (through write_file,
// so a snapshot is taken first and the change can be undone); a whole file made, deleted or binary is put back
// from the turn's snapshot; *Undo all* restores every file of the turn as the rewind does; a comment on a line goes
// with the next request.
export function ReviewPane({ req, onClose }: { req: ReviewRequest; onClose: () => void }) {
  const { callTool, userCall } = useBridge()
  const [scope, setScope] = useState(req.scope)
  const [seen, setSeen] = useState(req.seq)
  if (seen !== req.seq) {
    setSeen(req.seq)
    setScope(req.scope)
  }
  const range = scope === 'turn' ? req.turn : req.conversation
  const [again, setAgain] = useState(0)
  // What is shown is the diff of the range asked for last, loading until it comes; counted again after a change,
  // the range's last diff stays in view meanwhile.
  const which = range ? `${req.seq} ${range.from} ${range.to}` : ''
  const want = `${which} ${again}`
  const [got, setLoaded] = useState<Loaded>({ key: '', state: 'loading' })
  const loaded: Loaded = got.key === want || (got.state === 'ready' && got.key.startsWith(`${which} `)) ? got : { key: want, state: 'loading' }
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<{ key: string; text: string } | null>(null)
  const [reverted, setReverted] = useState<Reverted[]>([])
  const [commenting, setCommenting] = useState<{ key: string; where: string; text: string } | null>(null)
  const [commented, setCommented] = useState<string[]>([])
  const refresh = useCallback(() => setAgain((n) => n + 1), [])

  useEffect(() => {
    if (!range) return
    let live = true
    callTool('diff_snapshot', { id: range.from, ...(range.to ? { to: range.to } : {}) })
      .then((d) => live && setLoaded({ key: want, state: 'ready', files: parseDiff(d.diff) }))
      .catch((e: unknown) => live && setLoaded({ key: want, state: 'failed', message: toBackendError(e).message }))
    return () => {
      live = false
    }
  }, [callTool, range, want])

  const files = loaded.state === 'ready' ? loaded.files : []
  const paths = [...new Set(files.flatMap((f) => (f.oldPath ? [f.path, f.oldPath] : [f.path])))]

  const act = async (key: string, f: () => Promise<void>) => {
    setBusy(true)
    setProblem(null)
    try {
      await f()
    } catch (e) {
      setProblem({ key, text: e instanceof Error && !('code' in e) ? e.message : toBackendError(e).message })
    } finally {
      setBusy(false)
      refresh()
    }
  }

  const revert = (f: FileDiff, h: Hunk, key: string) =>
    act(key, async () => {
      const path = absolute(req.root, f.path)
      const file = await userCall('read_file', { path })
      const r = revertHunk(file.content, h)
      if (!r.ok) throw new Error(`${f.path}: ${r.reason}`)
      const out = await userCall('write_file', { path, content: r.content, expected_sha256: await sha256(file.content) })
      const what = `${changedLines(h)} of ${f.path}`
      req.actions.tell(`(Rooted: the user reverted ${what} from your changes; those lines are back as they were before "${req.title}".)`, out.backup, `Before reverting ${what}`)
      setReverted((l) => [...l, { key, path: f.path, what, backup: out.backup }])
    })

  // A file made, deleted or binary is put back whole from the snapshot the range starts at.
  const putBack = (f: FileDiff, key: string) =>
    act(key, async () => {
      if (!range) return
      const ps = f.oldPath ? [f.path, f.oldPath] : [f.path]
      const out = await callTool('restore_snapshot', { id: range.from, paths: ps })
      const what = f.status === 'added' ? `${f.path} (removed)` : `${f.path} (put back)`
      req.actions.tell(`(Rooted: the user took back your change to ${ps.join(', ')}; it is as it was before "${req.title}".)`, out.backup, `Before taking back ${f.path}`)
      setReverted((l) => [...l, { key, path: f.path, what, backup: out.backup }])
    })

  const undo = (r: Reverted) =>
    act(r.key, async () => {
      if (!r.backup) return
      await callTool('restore_snapshot', { id: r.backup, paths: [r.path] })
      req.actions.tell(`(Rooted: the user undid their revert of ${r.what}; it is as you left it.)`)
      setReverted((l) => l.map((x) => (x.key === r.key ? { ...x, undone: true } : x)))
    })

  const undoAll = () =>
    act('all', async () => {
      if (!range) return
      await req.actions.restore(range.from, paths, scope === 'turn' ? req.title : 'this conversation')
    })

  const addComment = () => {
    if (!commenting || !commenting.text.trim()) return
    const c = `${commenting.where}: ${commenting.text.trim()}`
    req.actions.comment(c)
    setCommented((l) => [...l, c])
    setCommenting(null)
  }

  return (
    <section className="file-pane review-pane" data-testid="review-pane" aria-label="Review changes">
      <header className="file-header review-header">
        <span className="file-name" title={req.title}>
          Review: {scope === 'turn' ? `“${req.title}”` : 'this conversation'}
        </span>
        <span className="review-tools">
          <span className="segmented" role="radiogroup" aria-label="Scope">
            <button role="radio" aria-checked={scope === 'turn'} className={scope === 'turn' ? 'active' : ''} disabled={!req.turn} onClick={() => setScope('turn')} data-testid="review-scope-turn">
              This turn
            </button>
            <button role="radio" aria-checked={scope === 'conversation'} className={scope === 'conversation' ? 'active' : ''} disabled={!req.conversation} onClick={() => setScope('conversation')} data-testid="review-scope-conversation">
              This conversation
            </button>
          </span>
          {loaded.state === 'ready' && files.length > 0 ? (
            <>
              <span className="review-summary" data-testid="review-summary">
                {diffSummary(files)}
              </span>
              <button className="review-undo-all" onClick={() => void undoAll()} disabled={busy} data-testid="review-undo-all" title="Put every file of these changes back as it was before them (a snapshot is taken first; the notice in the conversation can undo it)">
                Undo all
              </button>
            </>
          ) : null}
          <button onClick={onClose} data-testid="review-close" title="Close the review">
            Close
          </button>
        </span>
      </header>
      {problem?.key === 'all' ? (
        <div className="file-banner" role="alert" data-testid="review-problem">
          {problem.text}
        </div>
      ) : null}
      {reverted.length > 0 ? (
        <ul className="review-reverted" data-testid="review-reverted">
          {reverted.map((r) => (
            <li key={r.key}>
              Reverted {r.what}.{' '}
              {r.undone ? (
                <span className="muted">Undone.</span>
              ) : r.backup ? (
                <button className="link-button" onClick={() => void undo(r)} disabled={busy} data-testid="review-revert-undo">
                  Undo
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {commented.length > 0 ? (
        <div className="review-commented muted" data-testid="review-commented">
          {commented.length === 1 ? '1 comment goes' : `${commented.length} comments go`} with your next request.
        </div>
      ) : null}
      <div className="review-body">
        {!range ? <div className="placeholder">Nothing was changed.</div> : null}
        {range && loaded.state === 'loading' ? <div className="placeholder">Comparing the snapshots…</div> : null}
        {loaded.state === 'failed' ? <div className="file-banner" data-testid="review-problem">The changes cannot be shown: {loaded.message}</div> : null}
        {range && loaded.state === 'ready' && files.length === 0 ? (
          <div className="placeholder" data-testid="review-empty">
            No file differs: the changes were taken back.
          </div>
        ) : null}
        {files.map((f) => (
          <article key={`${f.status} ${f.path}`} className="review-file" data-testid="review-file" data-path={f.path} data-status={f.status}>
            <header className="review-file-header">
              <code>{f.oldPath ? `${f.oldPath} → ${f.path}` : f.path}</code>
              <span className={`review-status ${f.status}`}>{f.status === 'added' ? 'new' : f.status}</span>
              <span className="review-count">
                <span className="plus">+{f.added}</span> <span className="minus">−{f.removed}</span>
              </span>
              {f.binary || f.hunks.length === 0 || f.status !== 'modified' ? (
                <button onClick={() => void putBack(f, f.path)} disabled={busy} data-testid="review-put-back" title="Put this file back as it was before these changes (a snapshot is taken first)">
                  {f.status === 'added' ? 'Remove file' : f.status === 'deleted' ? 'Bring back' : 'Put back'}
                </button>
              ) : null}
            </header>
            {problem && problem.key === f.path ? <div className="review-problem" role="alert" data-testid="review-problem">{problem.text}</div> : null}
            {f.binary ? <div className="muted review-note">Binary file: its content is not shown.</div> : null}
            {f.hunks.map((h, hi) => {
              const key = `${f.path}#${hi}`
              return (
                <div key={key} className="review-hunk" data-testid="review-hunk">
                  <div className="review-hunk-header">
                    <code>{h.header}</code>
                    {f.status === 'modified' && !f.binary ? (
                      <button onClick={() => void revert(f, h, key)} disabled={busy} data-testid="review-revert-hunk" title="Take these lines back to how they were before (a snapshot is taken first, so it can be undone)">
                        Revert hunk
                      </button>
                    ) : null}
                  </div>
                  {problem && problem.key === key ? <div className="review-problem" role="alert" data-testid="review-problem">{problem.text}</div> : null}
                  <div className="diff-view review-diff">
                    {h.lines.map((l, k) => {
                      const mark = l[0]
                      const kind = mark === '+' ? 'add' : mark === '-' ? 'del' : mark === '\\' ? 'note' : 'ctx'
                      const at = hunkLine(h, k)
                      const rowKey = `${key}:${k}`
                      const where = `${f.status === 'deleted' || at.side === 'old' ? (f.oldPath ?? f.path) : f.path}:${at.line}`
                      return (
                        <div key={k}>
                          <div className={`diff-row review-row ${kind}`} data-testid="diff-row" data-kind={kind}>
                            <span className="diff-num" data-n={kind === 'del' ? at.line : kind === 'ctx' ? at.line - h.newStart + h.oldStart - shift(h, k) : ''} />
                            <span className="diff-num" data-n={kind === 'add' || kind === 'ctx' ? at.line : ''} />
                            <span className="diff-text">{kind === 'note' ? l : `${mark}${l.slice(1)}`}</span>
                            {kind !== 'note' ? (
                              <button className="review-comment-button" onClick={() => setCommenting({ key: rowKey, where, text: '' })} aria-label={`Comment on ${where}`} title={`Comment on ${where}`} data-testid="review-comment-line">
                                ＋
                              </button>
                            ) : null}
                          </div>
                          {commenting?.key === rowKey ? (
                            <form
                              className="review-comment"
                              onSubmit={(e) => {
                                e.preventDefault()
                                addComment()
                              }}
                            >
                              <label>
                                <span className="muted">{where}:</span>
                                <input
                                  autoFocus
                                  value={commenting.text}
                                  onChange={(e) => setCommenting({ ...commenting, text: e.target.value })}
                                  onKeyDown={(e) => {
                                    if (e.key === 'Escape') setCommenting(null)
                                  }}
                                  placeholder="A note for the agent about this line"
                                  data-testid="review-comment-input"
                                />
                              </label>
                              <button type="submit" className="primary" disabled={!commenting.text.trim()} data-testid="review-comment-add">
                                Comment
                              </button>
                              <button type="button" onClick={() => setCommenting(null)}>
                                Cancel
                              </button>
                            </form>
                          ) : null}
                        </div>
                      )
                    })}
                  </div>
                </div>
              )
            })}
          </article>
        ))}
      </div>
    </section>
  )
}
