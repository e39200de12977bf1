import { createContext, useContext } from 'react'
import type { ProjectBridge } from '../bridge'
import type { AgentState } from '../agent/progress'

// ProjectScope is what a project's view knows of its place in the window: its own bridge (every call it makes
// carries its project's id), whether it is the project shown (a hidden view keeps working but takes no keys), and
// where it reports its agent's state.
export interface ProjectScope {
  bridge: ProjectBridge
  shown: boolean
  report: (f: (old: AgentState) => AgentState) => void // sets the state the strip shows from the one it shows
  // unsaved says why the project's open conversation is not saved ('' once it is); the window asks before
  // closing while any open project has a reason.
  unsaved: (reason: string) => void
}

export const ProjectScopeContext = createContext<ProjectScope | null>(null)

// useProjectScope is the scope of the project view the caller is in; outside one it throws, since a call made
// there would have no project to act on.
export function useProjectScope(): ProjectScope {
  const s = useContext(ProjectScopeContext)
  if (!s) throw new Error('useProjectScope outside a project view')
  return s
}

// useBridge is the bridge of the project view the caller is in.
export function useBridge(): ProjectBridge {
  return useProjectScope().bridge
}

// useShown says whether the caller's project is the one shown; true outside a project view (the folder picker,
// dialogs of the window itself).
export function useShown(): boolean {
  return useContext(ProjectScopeContext)?.shown ?? true
}
