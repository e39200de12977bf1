import { useCallback, useEffect, useMemo, useState } from 'react'
import { bridgeFor, setConversationUnsaved, type Project } from './bridge'
import type { AgentState } from './agent/progress'
import { ProjectStrip } from './components/project-strip'
import { StatusBar } from './components/status-bar'
import { WorktreeBar } from './components/worktree-bar'
import { WorktreeMenu } from './components/worktree-menu'
import { useOpenProjects } from './stores/open-projects'
import { useSnapshotMessage } from './stores/snapshot-message'
import { useWorktreeActions, type WorktreeActions } from './stores/worktree-actions'
import { ProjectScopeContext, type ProjectScope } from './stores/project-scope'
import { OpenProject } from './views/open-project'
import { Workbench } from './views/workbench'

export function App() {
  const open = useOpenProjects()
  const { projects, current: project, show, close, hide } = open
  const worktrees = useWorktreeActions(open)
  // What each open project's agent is doing, for the strip.
  const [states, setStates] = useState<Record<string, AgentState>>({})
  const report = useCallback((id: string, f: (old: AgentState) => AgentState) => {
    setStates((all) => {
      const next = f(all[id] ?? '')
      return next === (all[id] ?? '') ? all : { ...all, [id]: next }
    })
  }, [])

  // Why a project's open conversation is not saved, by id: the backend (which asks before the window closes) hears
  // the first reason any open project has, so one project saving cannot hide another's failure.
  const [unsavedBy, setUnsavedBy] = useState<Record<string, string>>({})
  const unsaved = useCallback((id: string, reason: string) => setUnsavedBy((all) => ((all[id] ?? '') === reason ? all : { ...all, [id]: reason })), [])
  // A closed project's reason goes with it.
  const unsavedReason = useMemo(() => {
    const names = new Map(projects.map((p) => [p.id, p.name]))
    const [id, reason] = Object.entries(unsavedBy).find(([id, r]) => r && names.has(id)) ?? ['', '']
    return reason ? `${names.get(id)}: ${reason}` : ''
  }, [unsavedBy, projects])
  useEffect(() => {
    void setConversationUnsaved(unsavedReason).catch(() => undefined)
  }, [unsavedReason])

  // The first snapshot of a large project takes a while; say so, for the project shown, until it is done.
  const snapshotMessage = useSnapshotMessage(project?.id)

  if (!open.ready) return <div className="app" />
  return (
    <div className="app" data-testid="app">
      <div className="app-body">
        {projects.length > 0 ? <ProjectStrip projects={projects} current={project?.id ?? null} states={states} onSwitch={show} onClose={(p) => void close(p)} onOpen={hide} /> : null}
        <div className="app-main">
          {/* Every open project's view stays mounted, the one not shown hidden: its agent, approvals and jobs go
              on while the user works in another. Closing a project unmounts its view, which stops its agent. */}
          {projects.map((p) => (
            <ProjectView key={p.id} project={p} shown={p.id === project?.id} onClose={hide} report={report} unsaved={unsaved} worktrees={worktrees} />
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
interface ViewProps {
  project: Project
  shown: boolean
  onClose: () => void
  report: (id: string, f: (old: AgentState) => AgentState) => void
  unsaved: (id: string, reason: string) => void
  worktrees: WorktreeActions
}

function ProjectView({ project, shown, onClose, report, unsaved, worktrees }: ViewProps) {
  const id = project.id
  const bridge = useMemo(() => bridgeFor(id), [id])
  const reportMine = useCallback((f: (old: AgentState) => AgentState) => report(id, f), [report, id])
  const unsavedMine = useCallback((reason: string) => unsaved(id, reason), [unsaved, id])
  const scope = useMemo<ProjectScope>(() => ({ bridge, shown, report: reportMine, unsaved: unsavedMine }), [bridge, shown, reportMine, unsavedMine])
  return (
    <ProjectScopeContext.Provider value={scope}>
      <div className="project-view" hidden={!shown} data-testid="project-view" data-project={project.id}>
        {/* A worktree's bar heads its view: its branch, what it changed, and the ways to bring it home. */}
        {project.worktree ? (
          <WorktreeBar project={{ ...project, worktree: project.worktree }} open={worktrees.projects} onShow={worktrees.show} onDiscard={worktrees.discard} discardError={worktrees.discardErrors[id]} setupFailure={worktrees.setupFailures[id]} />
        ) : null}
        <Workbench project={project} onClose={onClose} headerExtra={<WorktreeMenu project={project} open={worktrees.projects} onOpened={worktrees.opened} />} />
      </div>
    </ProjectScopeContext.Provider>
  )
}
