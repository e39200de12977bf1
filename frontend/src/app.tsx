import { useCallback, useEffect, useMemo, useState } from 'react'
import { bridgeFor, onSnapshotProgress, type Project } from './bridge'
import type { AgentState } from './agent/progress'
import { ProjectStrip } from './components/project-strip'
import { StatusBar } from './components/status-bar'
import { useOpenProjects } from './stores/open-projects'
import { ProjectScopeContext, type ProjectScope } from './stores/project-scope'
import { OpenProject } from './views/open-project'
import { Workbench } from './views/workbench'

export function App() {
  const open = useOpenProjects()
  const { projects, current: project, show, close, hide } = open
  // What each open project's agent is doing, for the strip.
  const [states, setStates] = useState<Record<string, AgentState>>({})
  const report = useCallback((id: string, f: (old: AgentState) => AgentState) => {
    setStates((all) => {
      const next = f(all[id] ?? '')
      return next === (all[id] ?? '') ? all : { ...all, [id]: next }
    })
  }, [])

  // The first snapshot of a large project takes a while; say so, for the project shown, until it is done.
  const [snapshotMessage, setSnapshotMessage] = useState<string | undefined>()
  const shownId = project?.id
  useEffect(
    () =>
      onSnapshotProgress((p) => {
        if (p.workspace !== shownId) return
        if (p.state === 'running') setSnapshotMessage('recording the first snapshot…')
        else if (p.state === 'failed') setSnapshotMessage(`snapshots unavailable: ${p.error ?? ''}`)
        else {
          setSnapshotMessage(`first snapshot: ${p.files ?? 0} files in ${(p.elapsed_ms / 1000).toFixed(1)} s`)
          setTimeout(() => setSnapshotMessage(undefined), 5000)
        }
      }),
    [shownId],
  )

  if (!open.ready) return <div className="app" />
  return (
    <div className="app" data-testid="app">
      <div className="app-body">
        {projects.length > 0 ? <ProjectStrip projects={projects} current={project?.id ?? null} states={states} onSwitch={show} onClose={(p) => void close(p)} onOpen={hide} /> : null}
        <div className="app-main">
          {/* Every open project's view stays mounted, the one not shown hidden: its agent, approvals and jobs go
              on while the user works in another. Closing a project unmounts its view, which stops its agent. */}
          {projects.map((p) => (
            <ProjectView key={p.id} project={p} shown={p.id === project?.id} onClose={hide} report={report} />
          ))}
          {project ? null : <OpenProject onOpened={show} initialError={open.startError} />}
        </div>
      </div>
      <StatusBar project={project} message={snapshotMessage} />
    </div>
  )
}

// ProjectView is one open project's workbench with its scope: its own bridge, made once for its id, so every call
// its views and agent make goes to it whichever project is shown.
function ProjectView({ project, shown, onClose, report }: { project: Project; shown: boolean; onClose: () => void; report: (id: string, f: (old: AgentState) => AgentState) => void }) {
  const bridge = useMemo(() => bridgeFor(project.id), [project.id])
  const scope = useMemo<ProjectScope>(() => ({ bridge, shown, report: (f) => report(project.id, f) }), [bridge, shown, report, project.id])
  return (
    <ProjectScopeContext.Provider value={scope}>
      <div className="project-view" hidden={!shown} data-testid="project-view" data-project={project.id}>
        <Workbench project={project} onClose={onClose} />
      </div>
    </ProjectScopeContext.Provider>
  )
}
