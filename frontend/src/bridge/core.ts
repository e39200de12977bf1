// The project-wide calls and the raw project-scoped ones (each taking the workspace id first; a view uses them
// through bridgeFor, which binds its project's id).
import * as Projects from '../../wailsjs/go/app/Projects'
import * as Tools from '../../wailsjs/go/app/Tools'
import { BrowserOpenURL, EventsOn } from '../../wailsjs/runtime/runtime'
import { wrap } from './wrap'
import { EventFsChanges, EventSnapshot, EventToolOutput, type FsChanges, type SnapshotProgress, type ToolOutput, type WatchStatus } from './events'
import type { Project, RecentProject, ToolResults, ToolSpec } from './types'

// openExternal opens a web link in the user's browser, never in the app's own web view.
export const openExternal = (url: string): void => BrowserOpenURL(url)

export const openProject = (path: string): Promise<Project> => wrap(() => Projects.Open(path))

// chooseProject shows the native folder dialog; null when the user cancels.
export const chooseProject = (): Promise<Project | null> => wrap(async () => (await Projects.Choose()) ?? null)

// currentProject is the project the window showed last (the one given at start, for a new window), or null.
export const currentProject = (): Promise<Project | null> => wrap(async () => (await Projects.Current()) ?? null)

// openProjects lists the projects open in the backend, in the order they were opened.
export const openProjects = (): Promise<Project[]> => wrap(async () => (await Projects.List()) ?? [])

// closeProject closes project id: its background jobs end, its watcher stops; the other projects go on.
export const closeProject = (id: string): Promise<void> => wrap(() => Projects.Close(id))

// focusProject tells the backend the window shows project id, so a reloaded window comes back to it.
export const focusProject = (id: string): Promise<void> => wrap(() => Projects.Focus(id))

export const recentProjects = (): Promise<RecentProject[]> => wrap(async () => (await Projects.Recent()) ?? [])

export const forgetProject = (path: string): Promise<void> => wrap(() => Projects.Forget(path))

export const toolSpecs = (ws: string): Promise<ToolSpec[]> =>
  wrap(async () => (await Tools.Specs(ws)).map((s) => ({ ...s, input_schema: JSON.parse(s.input_schema) as Record<string, unknown> })))

// callTool runs a backend tool by name. Arguments and results cross the bridge as JSON text, exactly as the CLI
// and MCP faces see them. conversation, for the agent's calls, is the conversation's id: what its model reads is
// recorded as its own, so another conversation must read a file itself before editing it (not_read).
export function callTool<N extends keyof ToolResults>(ws: string, name: N, args: Record<string, unknown>, conversation?: string): Promise<ToolResults[N]>
export function callTool(ws: string, name: string, args: Record<string, unknown>, conversation?: string): Promise<unknown>
export function callTool(ws: string, name: string, args: Record<string, unknown>, conversation = ''): Promise<unknown> {
  return wrap(async () => JSON.parse(await Tools.CallIn(ws, conversation, name, JSON.stringify(args))) as unknown)
}

// userCall is callTool for the user's own reads and saves (the file pane and its editor): they do not count as
// the agent having read the file, so the agent's later edit of a file the user changed is refused as stale.
export function userCall<N extends 'read_file' | 'write_file' | 'find_files' | 'list_directory'>(ws: string, name: N, args: Record<string, unknown>): Promise<ToolResults[N]> {
  return wrap(async () => JSON.parse(await Tools.UserCall(ws, name, JSON.stringify(args))) as ToolResults[N])
}

// RunningCall is a tool call whose output streams while it runs.
export interface RunningCall<T> {
  id: string
  result: Promise<T>
  cancel: () => Promise<boolean>
}

let nextCall = 0

// runTool runs a tool showing its output as it happens: onOutput gets each piece (for exec_shell, the program's
// stdout and stderr). The subscription ends with the call; cancel stops it (a command's whole process group).
export function runTool<N extends keyof ToolResults>(ws: string, name: N, args: Record<string, unknown>, onOutput: (o: ToolOutput) => void, conversation = ''): RunningCall<ToolResults[N]> {
  const id = `call-${Date.now().toString(36)}-${(nextCall++).toString(36)}`
  const off = EventsOn(EventToolOutput, (o: ToolOutput) => {
    if (o.id === id) onOutput(o)
  })
  const result = wrap(async () => JSON.parse(await Tools.RunIn(ws, conversation, id, name, JSON.stringify(args))) as ToolResults[N]).finally(off)
  return { id, result, cancel: () => wrap(() => Tools.Cancel(id)) }
}

// onSnapshotProgress follows the first snapshot of every opened project (each report names its workspace); it
// returns the unsubscribe function.
export function onSnapshotProgress(f: (p: SnapshotProgress) => void): () => void {
  return EventsOn(EventSnapshot, f)
}

// onFsChanges hears of every batch of changes on disk in project ws (another project's are not for it); it returns the unsubscribe function.
export function onFsChanges(ws: string, f: (c: FsChanges) => void): () => void {
  return EventsOn(EventFsChanges, (c: FsChanges) => {
    if (c.workspace === ws) f(c)
  })
}

// watchStatus says whether project ws is watched live.
export const watchStatus = (ws: string): Promise<WatchStatus> => wrap(() => Projects.Watch(ws))

// allowHost lets one conversation's commands reach host in allow-list mode while the window runs (a refused
// host's card, "allow for this conversation").
export const allowHost = (ws: string, conversation: string, host: string): Promise<void> => wrap(() => Tools.AllowHost(ws, conversation, host))

// answerHost answers the question ask (the token its output's 'host' stream carried) of a running command that
// waits to reach host in allow-list mode: allow lets it through for the rest of that command, false refuses it.
// A question that ended meanwhile is not_found, and nothing was allowed.
export const answerHost = (ws: string, ask: string, host: string, allow: boolean): Promise<void> => wrap(() => Tools.AnswerHost(ws, ask, host, allow))
