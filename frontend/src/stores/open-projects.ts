import { useCallback, useEffect, useRef, useState } from 'react'
import { flushSync } from 'react-dom'
import { closeProject, currentProject, focusProject, openProjects, toBackendError, type BackendError, type Project } from '../bridge'

// OpenProjects is the window's list of open projects and the one it shows.
export interface OpenProjects {
  ready: boolean // the backend's list has been read
  projects: Project[]
  current: Project | null
  startError: BackendError | null // a folder given at start that could not be opened
  show: (p: Project) => void // show an open project, or one just opened (added to the list)
  close: (p: Project) => Promise<void> // close a project: its view and agent first, then in the backend its jobs; the others go on
  drop: (p: Project) => void // take a project's view away (its agent stops) for a call that closes it in the backend itself
  hide: () => void // show the folder picker; every project stays open
}

// useOpenProjects follows the projects open in the backend and which one the window shows. Every open project's
// view stays mounted (its agent works on while another is shown) and makes its calls through its own project's
// bridge, so which project is shown decides what the user sees, never where a call goes.
export function useOpenProjects(): OpenProjects {
  const [ready, setReady] = useState(false)
  const [projects, setProjects] = useState<Project[]>([])
  const [current, setCurrent] = useState<Project | null>(null)
  const [startError, setStartError] = useState<BackendError | null>(null)
  const shown = useRef<string | null>(null) // current's id, for the callbacks

  const show = useCallback((p: Project) => {
    shown.current = p.id
    setStartError(null)
    setCurrent(p)
    setProjects((list) => (list.some((x) => x.id === p.id) ? list : [...list, p]))
    focusProject(p.id).catch(() => undefined) // only where a reloaded window comes back to
  }, [])

  const hide = useCallback(() => {
    shown.current = null
    setCurrent(null)
  }, [])

  // Its view goes first, at once: unmounting it stops its agent, so no step of a turn runs on against a project
  // being closed (a command the close kills would otherwise come back as a result the model acts on).
  const drop = useCallback(
    (p: Project) =>
      flushSync(() => {
        setProjects((list) => list.filter((x) => x.id !== p.id))
        if (shown.current === p.id) hide()
      }),
    [hide],
  )

  const close = useCallback(
    async (p: Project) => {
      drop(p)
      await closeProject(p.id).catch(() => undefined) // closed already: it goes from the list all the same
    },
    [drop],
  )

  // A project given on the command line (--root) is already open in the backend, and a reloaded window finds
  // every project it had open.
  useEffect(() => {
    Promise.all([currentProject(), openProjects()])
      .then(([cur, list]) => {
        setProjects(list)
        if (cur) show(cur)
      })
      .catch((e: unknown) => setStartError(toBackendError(e)))
      .finally(() => setReady(true))
  }, [show])

  return { ready, projects, current, startError, show, close, drop, hide }
}
