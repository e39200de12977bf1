package app

// Event names shared with the frontend (frontend/src/bridge/events.ts); TestEventNamesMatchFrontend keeps the two
// lists equal.
const (
	// EventToolOutput carries a running tool's output: ToolOutput.
	EventToolOutput = "tool:output"
)

// ToolOutput is a piece of a running tool's output, for the call with ID.
type ToolOutput struct {
	ID     string `json:"id"`
	Stream string `json:"stream"` // "stdout" or "stderr"
	Data   string `json:"data"`
}
