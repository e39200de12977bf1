package app

// Event names shared with the frontend (frontend/src/bridge/events.ts); TestEventNamesMatchFrontend keeps the two
// lists equal.
const (
	// EventToolOutput carries a running tool's output: ToolOutput.
	EventToolOutput = "tool:output"
	// EventSnapshot reports the first snapshot of an opened project, which can take a while: SnapshotProgress.
	EventSnapshot = "snapshot:progress"
)

// SnapshotProgress says where the opened project's first snapshot is.
type SnapshotProgress struct {
	Root    string `json:"root"`
	State   string `json:"state"` // "running", "done" or "failed"
	Files   int    `json:"files,omitempty"`
	Elapsed int64  `json:"elapsed_ms"`
	Error   string `json:"error,omitempty"`
}

// ToolOutput is a piece of a running tool's output, for the call with ID.
type ToolOutput struct {
	ID     string `json:"id"`
	Stream string `json:"stream"` // "stdout" or "stderr"
	Data   string `json:"data"`
}
