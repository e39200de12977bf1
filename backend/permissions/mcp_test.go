package permissions

import "testing"

// TestMCPToolRules: a rule covers one tool of another server, or all of a server's with "*"; deny still wins, and
// "*" means nothing in a rule for Rooted's own tools.
func TestMCPToolRules(t *testing.T) {
	t.Parallel()
	rules := []Rule{
		{Action: Allow, Tool: "mcp__calc__*"},
		{Action: Deny, Tool: "mcp__calc__wipe"},
		{Action: Allow, Tool: "write_*"},
		{Action: Deny, Tool: "mcp__evil*"},
	}
	for _, c := range []struct {
		name string
		want Action
	}{
		{"mcp__calc__add", Allow},
		{"mcp__calc__wipe", Deny},
		{"mcp__calculator__add", ""},
		{"mcp__evil__x", Deny},
		{"mcp__other__add", ""},
		{"write_file", ""},
	} {
		if d := DecideTool(c.name, rules); d.Action != c.want {
			t.Errorf("%s: %+v, want %q", c.name, d, c.want)
		}
	}
}
