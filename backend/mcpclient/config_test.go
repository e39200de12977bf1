package mcpclient

import (
	"strings"
	"testing"
)

func TestParseServers(t *testing.T) {
	for _, c := range []struct {
		name, text, err string
		n               int
	}{
		{"empty", "  ", "", 0},
		{"as pasted", `{"github": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"], "env": {"GITHUB_TOKEN": "x"}}, "docs": {"url": "https://mcp.example.com/mcp", "headers": {"Authorization": "Bearer x"}}}`, "", 2},
		{"grants", `{"fs": {"command": "fs-server", "network": true, "write_project": true, "readable": ["/opt/data"], "timeout_ms": 5000}}`, "", 1},
		{"misspelt grant", `{"fs": {"command": "fs-server", "netwrok": true}}`, "unknown field", 0},
		{"both", `{"x": {"command": "a", "url": "https://b"}}`, "not both", 0},
		{"neither", `{"x": {}}`, `name a "command"`, 0},
		{"bad url", `{"x": {"url": "file:///etc/passwd"}}`, "not an http", 0},
		{"grant on a url", `{"x": {"url": "https://b", "network": true}}`, "for a program", 0},
		{"headers on a command", `{"x": {"command": "a", "headers": {"A": "b"}}}`, "for a \"url\"", 0},
		{"relative readable", `{"x": {"command": "a", "readable": ["data"]}}`, "not absolute", 0},
		{"bad name", `{"a/b": {"command": "a"}}`, "name", 0},
		{"variables by name", `{"gh": {"command": "a", "env_vars": ["GITHUB_TOKEN"], "env": {"A": "${HOME}/x", "B": "${env:B}", "C": "${C:-none}", "D": "$D", "E": "${keyring:e-token}"}}}`, "", 1},
		{"secret header", `{"x": {"url": "https://b", "headers": {"Authorization": "Bearer ${keyring:docs.token}"}}}`, "", 1},
		{"bad variable name", `{"x": {"command": "a", "env_vars": ["A-B"]}}`, "not a variable's name", 0},
		{"bad reference", `{"x": {"command": "a", "env": {"A": "${not a name}"}}}`, "names no environment variable", 0},
		{"bad secret name", `{"x": {"url": "https://b", "headers": {"A": "${keyring:a/b}"}}}`, "a secret's name", 0},
		{"env_vars on a url", `{"x": {"url": "https://b", "env_vars": ["A"]}}`, "for a program", 0},
		{"not an object", `[1]`, "mcp_servers", 0},
		{"trailing", `{} {}`, "after the object", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseServers([]byte(c.text))
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want one containing %q", err, c.err)
				}
				return
			}
			if err != nil || len(got) != c.n {
				t.Fatalf("%d servers, %v; want %d", len(got), err, c.n)
			}
		})
	}
}
