package tool

// Codes of the tools other MCP servers provide (backend/mcpclient).
const (
	// CodeServerFailed: the MCP server behind a tool could not be started, ended during the call, or did not
	// answer within the call's time.
	CodeServerFailed = "server_failed"
	// CodeToolFailed: another MCP server's tool ran and reported a failure of its own (isError).
	CodeToolFailed = "tool_failed"
)
