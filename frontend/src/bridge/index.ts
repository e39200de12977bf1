// The only importer of the generated Wails bindings. Everything else calls these typed wrappers, and every
// rejection arrives as a BackendError with the backend's code. A project's calls go through bridgeFor(id).
export { BackendError, toBackendError } from './backend-error'
export type * from './types'
export * from './agent'
export * from './permissions'
export * from './diagnostics'
export * from './mcp-servers'
export * from './worktrees'
export type { LLMStream } from './events'
export type { FsChange, FsChanges, SnapshotProgress, ToolOutput, WatchStatus } from './events'
export { bridgeFor, type ProjectBridge } from './scoped'
export * from './core'
