import { useCallback, useState } from 'react'
import { discardWorktree, toBackendError, type BackendError, type Project, type Worktree } from '../bridge'
import type { OpenProjects } from './open-projects'

// WorktreeActions are what a project's worktree controls ask of the window: showing a worktree opened as a
// project (focused on its new conversation), and discarding one (which closes its project).
export interface WorktreeActions {
  projects: Project[]
  show: (p: Project) => void
  opened: (p: Project, setup?: Worktree['setup']) => void // setup: what a new worktree's setup command did
  discard: (p: Project) => Promise<void>
  discardErrors: Record<string, BackendError> // why a Discard failed, by the project id it was of
  setupFailures: Record<string, NonNullable<Worktree['setup']>> // a new worktree's setup command that failed, by project id
}

// focusTries bounds how many frames opened waits for the new project's request box to be there.
const focusTries = 60

// useWorktreeActions gives the worktree controls their window-level actions over the open projects.
export function useWorktreeActions(open: OpenProjects): WorktreeActions {
  const { projects, show, drop } = open
  const [discardErrors, setDiscardErrors] = useState<Record<string, BackendError>>({})
  const [setupFailures, setSetupFailures] = useState<Record<string, NonNullable<Worktree['setup']>>>({})

  // opened shows a worktree's project with its request box focused: the user goes on typing the conversation. A
  // setup command that failed is said on the worktree's bar, where the user decides what to do about it.
  const opened = useCallback(
    (p: Project, setup?: Worktree['setup']) => {
      if (setup?.error) setSetupFailures((all) => ({ ...all, [p.id]: setup }))
      show(p)
      let tries = 0
      const focus = () => {
        const box = document.querySelector<HTMLElement>(`[data-testid="project-view"][data-project="${CSS.escape(p.id)}"] [data-testid="agent-input"]`)
        if (box) box.focus()
        else if (++tries < focusTries) requestAnimationFrame(focus)
      }
      requestAnimationFrame(focus)
    },
    [show],
  )

  // discard takes the worktree's view away first (its agent stops before its folder goes), then has the backend
  // close the project and remove the worktree and its branch, and shows the main checkout. If that fails the
  // project comes back, its bar saying why.
  const discard = useCallback(
    async (p: Project) => {
      if (!p.worktree) return
      drop(p)
      try {
        const main = await discardWorktree(p.id, p.worktree.name)
        setDiscardErrors(({ [p.id]: _, ...rest }) => rest)
        if (main) show(main)
      } catch (e) {
        setDiscardErrors((all) => ({ ...all, [p.id]: toBackendError(e) }))
        show(p)
      }
    },
    [drop, show],
  )

  return { projects, show, opened, discard, discardErrors, setupFailures }
}
