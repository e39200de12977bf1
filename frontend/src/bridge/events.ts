// Event names shared with the Go side (app/events.go); a Go test keeps the two lists equal.
export const EventToolOutput = 'tool:output'

// ToolOutput is a piece of a running tool's output.
export interface ToolOutput {
  id: string
  // status: the step a long call is at (making a worktree); host: a command waits to reach the host in data
  // (allow-list mode), answered with answerHost; host_ended: that question ended unanswered (ended says why)
  stream: 'stdout' | 'stderr' | 'status' | 'host' | 'host_ended'
  data: string
  // a question about a host: the port the command asked for (an answer covers that port only), its token
  // (answerHost's ask), how long the command waits, why it ended unanswered ('timeout': the wait ran out and the
  // host was refused; 'ended': the command ended; 'left': the call stopped waiting on the command)
  port?: number
  ask?: string
  wait_ms?: number
  ended?: 'timeout' | 'ended' | 'left'
}

export const EventSnapshot = 'snapshot:progress'

// SnapshotProgress says where the first snapshot of project workspace (at root) is.
export interface SnapshotProgress {
  workspace: string
  root: string
  state: 'running' | 'done' | 'failed'
  files?: number
  elapsed_ms: number
  error?: string
}

export const EventFsChanges = 'fs:changes'

// FsChange is one changed path (slash path from the root; '' is the root). op joins create, write, remove,
// rename, chmod and rescan with '|'; rescan means "re-read this path and everything below it".
export interface FsChange {
  path: string
  op: string
}

// WatchStatus says whether the open project is watched live; degraded means some folders are not (the system's
// watch limit), so views re-scan what they show instead.
export interface WatchStatus {
  active: boolean
  watched: number
  degraded: boolean
  reason?: string
}

// FsChanges is one debounced batch of changes in project workspace, at root.
export interface FsChanges {
  workspace: string
  root: string
  changes: FsChange[]
  watch: WatchStatus
}

export const EventLLM = 'llm:stream'

// LLMStream is one piece of a relayed LLM response for request id: its head, a numbered piece of body (base64),
// or the end (seq is then the number of pieces; error says why it ended early).
export interface LLMStream {
  id: string
  seq: number
  head?: { status: number; status_text: string; headers: Record<string, string> }
  data?: string
  end?: boolean
  error?: string
}

export const EventJobs = 'jobs:changed'

// JobsChanged names the background jobs of project workspace (at root) that started, ended or wrote output since
// the last report (at most one report every 100 ms).
export interface JobsChanged {
  workspace: string
  root: string
  ids: string[]
}

export const EventMCPServers = 'mcp:servers'
// The payload is the root of the project whose MCP servers changed state or tools.
