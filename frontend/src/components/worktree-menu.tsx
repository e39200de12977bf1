import { useCallback, useEffect, useRef, useState } from 'react'
import { startWorktree, openWorktree, toBackendError, worktrees, type BackendError, type Project, type ToolOutput, type Worktree } from '../bridge'
import { useShown } from '../stores/project-scope'
import { useOrdered } from '../lib/use-sequence'
import { BranchIcon } from './branch-icon'
import { ErrorNotice } from './error-notice'
import './worktrees.css'

interface Props {
  project: Project // the project whose header holds the menu (a main checkout, or one of its worktrees)
  open: Project[] // the projects open in the window, to tell a worktree open already from one to reopen
  onOpened: (p: Project, setup?: Worktree['setup']) => void // show a worktree opened (new or reopened) as a project
}

// progressLine is one line of what Start does: a step (status) or the setup command's output.
interface ProgressLine {
  stream: ToolOutput['stream']
  data: string
}

// WorktreeMenu is the header's "New in worktree" button and its dialog: a name for the conversation, what making
// its worktree does as it does it (git worktree add, then the project's setup command and its output), and the
// project's worktrees made earlier, each to reopen (after a restart the window lists them here).
export function WorktreeMenu({ project, open, onOpened }: Props) {
  const [shown, setShown] = useState(false)
  const [list, setList] = useState<Worktree[] | null>(null)
  const [listError, setListError] = useState<BackendError | null>(null)
  // Two listings (the project shown again, the button clicked) can answer out of order: only the newest is shown.
  const nextList = useOrdered()
  const load = useCallback(() => {
    const fresh = nextList()
    worktrees(project.id)
      .then((l) => {
        if (!fresh()) return
        setList(l)
        setListError(null)
      })
      .catch((e: unknown) => fresh() && setListError(toBackendError(e)))
  }, [project.id, nextList])
  // Listed again whenever the project is shown: a worktree closed or discarded meanwhile changes the count.
  const visible = useShown()
  useEffect(() => {
    if (visible) load()
  }, [visible, load])
  const others = (list ?? []).filter((w) => w.path !== project.root)
  return (
    <>
      <button
        className="link-button worktree-menu-button"
        onClick={() => {
          load()
          setShown(true)
        }}
        title="New conversation in a worktree: a checkout of its own, the main one untouched until you apply it; or reopen one"
        aria-label={`New conversation in a worktree${others.length ? ` (${others.length} to reopen)` : ''}`}
        data-testid="worktree-menu"
      >
        <BranchIcon /> Worktree{others.length ? ` (${others.length})` : ''}
      </button>
      {shown ? (
        <WorktreeDialog project={project} open={open} list={others} listError={listError} onOpened={onOpened} onClose={() => setShown(false)} />
      ) : null}
    </>
  )
}

interface DialogProps {
  project: Project
  open: Project[]
  list: Worktree[]
  listError: BackendError | null
  onOpened: (p: Project, setup?: Worktree['setup']) => void
  onClose: () => void
}

function WorktreeDialog({ project, open, list, listError, onOpened, onClose }: DialogProps) {
  const [name, setName] = useState('')
  const [busy, setBusy] = useState(false)
  const [progress, setProgress] = useState<ProgressLine[]>([])
  const [error, setError] = useState<BackendError | null>(null)
  const input = useRef<HTMLInputElement>(null)
  useEffect(() => input.current?.focus(), [])
  const main = project.worktree?.main_name ?? project.name

  const opened = (p: Project) => {
    onClose()
    onOpened(p)
  }
  const start = async () => {
    const n = name.trim()
    if (!n || busy) return
    setBusy(true)
    setError(null)
    setProgress([])
    try {
      const r = await startWorktree(project.id, n, (o) => setProgress((old) => [...old, { stream: o.stream, data: o.data }]))
      // Made and opened even when its setup command failed: the worktree's bar says so.
      onClose()
      onOpened(r.project, r.worktree.setup)
    } catch (e) {
      setError(toBackendError(e))
    } finally {
      setBusy(false)
    }
  }
  const reopen = async (w: Worktree) => {
    const already = open.find((p) => p.root === w.path)
    if (already) return opened(already)
    setError(null)
    try {
      opened((await openWorktree(project.id, w.name)).project)
    } catch (e) {
      setError(toBackendError(e))
    }
  }

  return (
    <div className="dialog-overlay" onClick={busy ? undefined : onClose}>
      <div className="dialog worktree-dialog" role="dialog" aria-label="New conversation in a worktree" onClick={(e) => e.stopPropagation()} data-testid="worktree-dialog">
        <h2>New conversation in a worktree</h2>
        <p className="worktree-hint">
          The conversation gets a checkout of {main} of its own, on a new branch named after it: its edits and commands
          stay there until you apply them to {main}.
        </p>
        <form
          className="worktree-form"
          onSubmit={(e) => {
            e.preventDefault()
            void start()
          }}
        >
          <input ref={input} value={name} onChange={(e) => setName(e.target.value)} placeholder="What is it for? (names the branch)" aria-label="Conversation name" disabled={busy} data-testid="worktree-name" />
          <button type="submit" className="primary" disabled={busy || !name.trim()} data-testid="worktree-start">
            {busy ? 'Making it…' : 'Start'}
          </button>
        </form>
        {progress.length ? (
          <pre className="worktree-progress" aria-live="polite" data-testid="worktree-progress">
            {progress.map((l, i) => (
              <span key={i} className={`worktree-progress-${l.stream}`}>
                {l.data}
              </span>
            ))}
          </pre>
        ) : busy ? (
          <pre className="worktree-progress" data-testid="worktree-progress">
            <span className="worktree-progress-status">making the worktree…</span>
          </pre>
        ) : null}
        {error ? <ErrorNotice error={error} actions={{ retry: () => void start() }} /> : null}
        {listError ? <ErrorNotice error={listError} /> : null}
        {list.length ? (
          <>
            <h3>Worktrees of {main}</h3>
            <ul className="worktree-list" data-testid="worktree-list">
              {list.map((w) => {
                const isOpen = open.some((p) => p.root === w.path)
                return (
                  <li key={w.name} data-testid="worktree-item" data-name={w.name}>
                    <span className="worktree-branch">
                      <BranchIcon /> {w.branch}
                    </span>
                    <span className="worktree-changed">{changedWords(w.changed_files)}</span>
                    <button onClick={() => void reopen(w)} disabled={busy} data-testid="worktree-reopen">
                      {isOpen ? 'Show' : 'Open'}
                    </button>
                  </li>
                )
              })}
            </ul>
          </>
        ) : null}
        <button onClick={onClose} disabled={busy}>
          Close
        </button>
      </div>
    </div>
  )
}

// changedWords says how many files a worktree changed since its base.
export function changedWords(n: number): string {
  if (n < 0) return 'its folder is gone'
  if (n === 0) return 'no files changed'
  return `${n} file${n === 1 ? '' : 's'} changed`
}
