package permissions

import "strings"

// MCPPrefix starts the names of other MCP servers' tools (mcp__<server>__<tool>).
const MCPPrefix = "mcp__"

// toolMatches reports whether a rule's tool covers the tool name: the same name, or, for another MCP server's
// tools, a name ending in "*" that covers the tools it starts (mcp__github__* is every tool of the server github,
// mcp__* of every server). Only those names take "*": a rule for Rooted's own tools names one.
func toolMatches(rule, name string) bool {
	if rule == name {
		return true
	}
	prefix, ok := strings.CutSuffix(rule, "*")
	return ok && strings.HasPrefix(prefix, MCPPrefix) && strings.HasPrefix(name, prefix)
}
