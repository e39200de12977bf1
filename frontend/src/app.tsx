import { useCallback, useEffect, useState } from 'react'
import { currentProject, onSnapshotProgress, toBackendError, type BackendError, type Project } from './bridge'
import { StatusBar } from './components/status-bar'
import { OpenProject } from './views/open-project'
import { Workbench } from './views/workbench'

export function App() {
  const [project, setProject] = useState<Project | null>(null)
  const [ready, setReady] = useState(false)
  const [startError, setStartError] = useState<BackendError | null>(null)

  // A project given on the command line (--root) is already open in the backend.
  useEffect(() => {
    currentProject()
      .then(setProject)
      .catch((e: unknown) => setStartError(toBackendError(e)))
      .finally(() => setReady(true))
  }, [])

  // The first snapshot of a large project takes a while; say so until it is done.
  const [snapshotMessage, setSnapshotMessage] = useState<string | undefined>()
  useEffect(
    () =>
      onSnapshotProgress((p) => {
        if (p.state === 'running') setSnapshotMessage('recording the first snapshot…')
        else if (p.state === 'failed') setSnapshotMessage(`snapshots unavailable: ${p.error ?? ''}`)
        else {
          setSnapshotMessage(`first snapshot: ${p.files ?? 0} files in ${(p.elapsed_ms / 1000).toFixed(1)} s`)
          setTimeout(() => setSnapshotMessage(undefined), 5000)
        }
      }),
    [],
  )

  const opened = useCallback((p: Project) => {
    setStartError(null)
    setProject(p)
  }, [])

  if (!ready) return <div className="app" />
  return (
    <div className="app" data-testid="app">
      {project ? <Workbench project={project} onClose={() => setProject(null)} /> : <OpenProject onOpened={opened} initialError={startError} />}
      <StatusBar project={project} message={snapshotMessage} />
    </div>
  )
}
