// The only importer of the generated Wails bindings. Everything else calls these typed wrappers, and every
// rejection arrives as a BackendError with the backend's code.
import * as Projects from '../../wailsjs/go/app/Projects'
import * as Tools from '../../wailsjs/go/app/Tools'
import { toBackendError } from './backend-error'
import type { Project, RecentProject, ToolResults, ToolSpec } from './types'

export { BackendError, toBackendError } from './backend-error'
export type * from './types'

async function wrap<T>(p: () => Promise<T>): Promise<T> {
  try {
    return await p()
  } catch (reason) {
    throw toBackendError(reason)
  }
}

export const openProject = (path: string): Promise<Project> => wrap(() => Projects.Open(path))

// chooseProject shows the native folder dialog; null when the user cancels.
export const chooseProject = (): Promise<Project | null> => wrap(async () => (await Projects.Choose()) ?? null)

export const currentProject = (): Promise<Project | null> => wrap(async () => (await Projects.Current()) ?? null)

export const recentProjects = (): Promise<RecentProject[]> => wrap(async () => (await Projects.Recent()) ?? [])

export const forgetProject = (path: string): Promise<void> => wrap(() => Projects.Forget(path))

export const toolSpecs = (): Promise<ToolSpec[]> =>
  wrap(async () => (await Tools.Specs()).map((s) => ({ ...s, input_schema: JSON.parse(s.input_schema) as Record<string, unknown> })))

// callTool runs a backend tool by name. Arguments and results cross the bridge as JSON text, exactly as the CLI
// and MCP faces see them.
export function callTool<N extends keyof ToolResults>(name: N, args: Record<string, unknown>): Promise<ToolResults[N]>
export function callTool(name: string, args: Record<string, unknown>): Promise<unknown>
export function callTool(name: string, args: Record<string, unknown>): Promise<unknown> {
  return wrap(async () => JSON.parse(await Tools.Call(name, JSON.stringify(args))) as unknown)
}
