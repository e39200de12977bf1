import { useCallback, useEffect, useRef, useState } from 'react'
import {
  applyWorktree,
  bridgeFor,
  commitWorktree,
  onFsChanges,
  openProject,
  toBackendError,
  worktreeOf,
  type BackendError,
  type Project,
  type ProjectWorktree,
  type Worktree,
  type WorktreeApplied,
  type WorktreeConflict,
} from '../bridge'
import { BranchIcon } from './branch-icon'
import { ErrorNotice } from './error-notice'
import { changedWords } from './worktree-menu'
import './worktrees.css'

interface Props {
  project: Project & { worktree: ProjectWorktree }
  open: Project[] // the projects open in the window: the main checkout among them, for Undo and Show
  onShow: (p: Project) => void // show a project (the main checkout after Apply)
  onDiscard: (p: Project) => Promise<void> // closes the project and removes the worktree and its branch; throws on failure
  discardError?: BackendError | null // why the last Discard failed (the bar was closed meanwhile)
  setupFailure?: Worktree['setup'] // the setup command that failed when the worktree was made
}

// Outcome is what the last action did, shown under the bar until the next one.
type Outcome =
  | { kind: 'applied'; applied: WorktreeApplied; undone?: boolean }
  | { kind: 'conflict'; conflicts: WorktreeConflict[]; message: string }
  | { kind: 'committed'; commit: string }
  | { kind: 'error'; error: BackendError }

// refreshAfter is how long the count of changed files waits after a change on disk: an agent's burst of edits is
// one recount, not one per file.
const refreshAfter = 400

// WorktreeBar heads a project that is a worktree: its branch, how many files it changed against its base, and the
// three ways to bring it home: Apply to the main checkout (one change, snapshotted first; a conflict names the
// files and changes nothing), Commit on branch, Discard (worktree and branch removed, the project closed).
export function WorktreeBar({ project, open, onShow, onDiscard, discardError, setupFailure }: Props) {
  const wt = project.worktree
  const [state, setState] = useState<Worktree | null>(null)
  const [busy, setBusy] = useState(false)
  const [outcome, setOutcome] = useState<Outcome | null>(discardError ? { kind: 'error', error: discardError } : null)
  const [committing, setCommitting] = useState(false)
  const [message, setMessage] = useState('')
  const [confirming, setConfirming] = useState(false)
  const [setupShown, setSetupShown] = useState(true)

  // One count at a time: counting runs git over the whole worktree, and an agent's edits can come faster than
  // that; changes meanwhile make one more count when it ends.
  const counting = useRef<'idle' | 'running' | 'again'>('idle')
  const count = useCallback(() => {
    if (counting.current !== 'idle') {
      counting.current = 'again'
      return
    }
    const run = (): Promise<void> =>
      worktreeOf(project.id)
        .then(setState)
        .catch(() => undefined) // the bar keeps the last count; the actions report their own failures
        .then(() => {
          if (counting.current !== 'again') return
          counting.current = 'running'
          return run()
        })
    counting.current = 'running'
    void run().finally(() => (counting.current = 'idle'))
  }, [project.id])
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  useEffect(() => {
    count()
    const off = onFsChanges(project.id, () => {
      clearTimeout(timer.current)
      timer.current = setTimeout(count, refreshAfter)
    })
    return () => {
      off()
      clearTimeout(timer.current)
    }
  }, [count, project.id])

  // mainProject is the main checkout as an open project, opened (and shown) if it is not.
  const mainProject = async (): Promise<Project> => {
    const m = open.find((p) => p.root === wt.main)
    if (m) return m
    const p = await openProject(wt.main)
    onShow(p)
    return p
  }

  const act = async (f: () => Promise<void>) => {
    setBusy(true)
    setOutcome(null)
    try {
      await f()
    } catch (e) {
      const err = toBackendError(e)
      const conflicts = err.code === 'conflict' ? (err.details?.conflicts as WorktreeConflict[] | undefined) : undefined
      setOutcome(conflicts?.length ? { kind: 'conflict', conflicts, message: err.message } : { kind: 'error', error: err })
    } finally {
      setBusy(false)
      count()
    }
  }
  const apply = () => act(async () => setOutcome({ kind: 'applied', applied: await applyWorktree(project.id, wt.name) }))
  const commit = () =>
    act(async () => {
      const c = await commitWorktree(project.id, wt.name, message.trim())
      setCommitting(false)
      setMessage('')
      setOutcome({ kind: 'committed', commit: c })
    })
  const undoApply = (applied: WorktreeApplied) =>
    act(async () => {
      const m = await mainProject()
      await bridgeFor(m.id).callTool('restore_snapshot', { id: applied.snapshot })
      setOutcome({ kind: 'applied', applied, undone: true })
    })
  const discard = () =>
    act(async () => {
      setConfirming(false)
      await onDiscard(project)
    })

  const changed = state ? changedWords(state.changed_files) : '…'
  return (
    <div className="worktree-bar-wrap" data-testid="worktree-bar">
      <div className="worktree-bar">
        <span className="worktree-branch" title={`A worktree of ${wt.main} on its own branch`} data-testid="worktree-branch">
          <BranchIcon /> {wt.branch}
        </span>
        <span className="worktree-of">worktree of {wt.main_name}</span>
        <span className="worktree-changed" data-testid="worktree-changed" data-count={state?.changed_files ?? ''}>
          {changed} vs its base
        </span>
        <span className="worktree-actions">
          <button className="primary" onClick={() => void apply()} disabled={busy} title={`Bring every change of this worktree into ${wt.main_name} as one change (snapshotted first)`} data-testid="worktree-apply">
            Apply to {wt.main_name}
          </button>
          <button onClick={() => setCommitting((c) => !c)} disabled={busy} aria-expanded={committing} data-testid="worktree-commit">
            Commit on branch
          </button>
          <button className="danger" onClick={() => setConfirming(true)} disabled={busy} data-testid="worktree-discard">
            Discard
          </button>
        </span>
      </div>
      {setupFailure && setupShown ? (
        <div className="worktree-outcome conflict" role="alert" data-testid="worktree-setup-failed">
          <span>
            The setup command <code>{setupFailure.command.join(' ')}</code> failed ({setupFailure.error}); the worktree is here all the same.
          </span>
          {setupFailure.output ? (
            <details>
              <summary>Its output</summary>
              <pre className="worktree-progress">{setupFailure.output}</pre>
            </details>
          ) : null}
          <button className="link-button" onClick={() => setSetupShown(false)}>
            Dismiss
          </button>
        </div>
      ) : null}
      {committing ? (
        <form
          className="worktree-commit-form"
          onSubmit={(e) => {
            e.preventDefault()
            void commit()
          }}
        >
          <input value={message} onChange={(e) => setMessage(e.target.value)} placeholder="Commit message" aria-label="Commit message" autoFocus data-testid="worktree-commit-message" />
          <button type="submit" className="primary" disabled={busy} data-testid="worktree-commit-confirm">
            Commit on {wt.branch}
          </button>
          <button type="button" onClick={() => setCommitting(false)}>
            Cancel
          </button>
        </form>
      ) : null}
      {confirming ? (
        <div className="worktree-confirm" role="alertdialog" aria-label="Discard the worktree" data-testid="worktree-discard-confirm">
          <span>
            Discard this worktree? Its folder, everything in it, and the branch {wt.branch} are removed; its conversation stops. {wt.main_name} is not touched.
          </span>
          <button className="danger" onClick={() => void discard()} data-testid="worktree-discard-yes">
            Discard
          </button>
          <button onClick={() => setConfirming(false)} data-testid="worktree-discard-no">
            Keep it
          </button>
        </div>
      ) : null}
      {outcome ? <OutcomeNotice outcome={outcome} main={wt.main_name} branch={wt.branch} busy={busy} onUndo={undoApply} onShowMain={() => void mainProject().then(onShow)} /> : null}
    </div>
  )
}

interface OutcomeProps {
  outcome: Outcome
  main: string
  branch: string
  busy: boolean
  onUndo: (a: WorktreeApplied) => void
  onShowMain: () => void
}

function OutcomeNotice({ outcome, main, branch, busy, onUndo, onShowMain }: OutcomeProps) {
  switch (outcome.kind) {
    case 'applied': {
      const a = outcome.applied
      if (outcome.undone)
        return (
          <div className="worktree-outcome" data-testid="worktree-applied" data-state="undone">
            Undone: {main} is back as it was before the apply.
          </div>
        )
      return (
        <div className="worktree-outcome" data-testid="worktree-applied" data-state="applied">
          {a.changed.length ? (
            <span>
              Applied to {main}: {a.changed.length} file{a.changed.length === 1 ? '' : 's'} ({a.changed.join(', ')}).
              {a.merged?.length ? <span data-testid="worktree-merged"> Merged with {main}&apos;s own changes: {a.merged.join(', ')}.</span> : null}
            </span>
          ) : (
            <span>Nothing to apply: {main} already has every change of this worktree.</span>
          )}
          {a.snapshot && a.changed.length ? (
            <>
              <button onClick={() => onUndo(a)} disabled={busy} title={`Put ${main} back as it was before (the snapshot ${a.snapshot.slice(0, 8)} in its History)`} data-testid="worktree-apply-undo">
                Undo
              </button>
              <button className="link-button" onClick={onShowMain} data-testid="worktree-show-main">
                Show {main}
              </button>
            </>
          ) : null}
        </div>
      )
    }
    case 'conflict':
      return (
        <div className="worktree-outcome conflict" role="alert" data-testid="worktree-conflicts">
          <strong>Nothing was applied: these files changed in {main} too and do not merge.</strong>
          <ul>
            {outcome.conflicts.map((c) => (
              <li key={c.path} data-testid="worktree-conflict" data-path={c.path}>
                <code>{c.path}</code> {c.reason}
              </li>
            ))}
          </ul>
        </div>
      )
    case 'committed':
      return (
        <div className="worktree-outcome" data-testid="worktree-committed">
          {outcome.commit ? `Committed ${outcome.commit.slice(0, 8)} on ${branch}.` : 'Nothing to commit: the branch already has every change.'}
        </div>
      )
    case 'error':
      return <ErrorNotice error={outcome.error} />
  }
}
