// Event names shared with the Go side (app/events.go); a Go test keeps the two lists equal.
export const EventToolOutput = 'tool:output'

// ToolOutput is a piece of a running tool's output.
export interface ToolOutput {
  id: string
  stream: 'stdout' | 'stderr'
  data: string
}

export const EventSnapshot = 'snapshot:progress'

// SnapshotProgress says where an opened project's first snapshot is.
export interface SnapshotProgress {
  root: string
  state: 'running' | 'done' | 'failed'
  files?: number
  elapsed_ms: number
  error?: string
}
