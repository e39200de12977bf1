import { useEffect, useState } from 'react'
import { onSnapshotProgress, workspace } from './bridge'
import { ProjectStrip } from './components/project-strip'
import { StatusBar } from './components/status-bar'
import { useOpenProjects } from './stores/open-projects'
import { OpenProject } from './views/open-project'
import { Workbench } from './views/workbench'

export function App() {
  const open = useOpenProjects()
  const { projects, current: project, show, close, hide } = open

  // The first snapshot of a large project takes a while; say so, for the project shown, until it is done.
  const [snapshotMessage, setSnapshotMessage] = useState<string | undefined>()
  useEffect(
    () =>
      onSnapshotProgress((p) => {
        if (p.workspace !== workspace()) return
        if (p.state === 'running') setSnapshotMessage('recording the first snapshot…')
        else if (p.state === 'failed') setSnapshotMessage(`snapshots unavailable: ${p.error ?? ''}`)
        else {
          setSnapshotMessage(`first snapshot: ${p.files ?? 0} files in ${(p.elapsed_ms / 1000).toFixed(1)} s`)
          setTimeout(() => setSnapshotMessage(undefined), 5000)
        }
      }),
    [],
  )

  if (!open.ready) return <div className="app" />
  return (
    <div className="app" data-testid="app">
      <div className="app-body">
        {projects.length > 0 ? <ProjectStrip projects={projects} current={project?.id ?? null} onSwitch={show} onClose={(p) => void close(p)} onOpen={hide} /> : null}
        <div className="app-main">
          {project ? <Workbench key={project.id} project={project} onClose={hide} /> : <OpenProject onOpened={show} initialError={open.startError} />}
        </div>
      </div>
      <StatusBar project={project} message={snapshotMessage} />
    </div>
  )
}
