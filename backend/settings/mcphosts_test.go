package settings

import (
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"github.com/rooted-dev/rooted/backend/permissions"
)

// A host allowed for one MCP server is in that server's list alone: not the project's (the list its commands get),
// not another server's. It is checked as network hosts are and stored in the form the proxy compares; a server
// the project does not name gets nothing; removal and pruning take it back.
func TestServerHosts(t *testing.T) {
	p := Project{
		NetworkHosts: []string{"pkg.example.com"},
		MCPServers:   map[string]MCPServer{"docs": {Command: "docs"}, "calc": {Command: "calc"}},
		Rules:        []permissions.Rule{{Action: permissions.Deny, Tool: permissions.Network, Domain: "evil.example.com"}},
	}
	for _, tc := range []struct {
		server, host, want string
		err                error
	}{
		{"docs", "API.Example.com.", "api.example.com", nil},
		{"docs", "*.cdn.example.org", "*.cdn.example.org", nil},
		{"docs", "api.example.com", "api.example.com", nil}, // again: listed once
		{"docs", "*", "", ErrBadHost},
		{"docs", "https://api.example.com/", "", ErrBadHost},
		{"docs", "localhost", "", ErrBadHost},
		{"nosuch", "api.example.com", "", ErrNoSuchServer},
	} {
		got, err := p.AllowServerHost(tc.server, tc.host)
		if got != tc.want || !errors.Is(err, tc.err) || (tc.err == nil) != (err == nil) {
			t.Errorf("AllowServerHost(%q, %q) = %q, %v; want %q, %v", tc.server, tc.host, got, err, tc.want, tc.err)
		}
	}
	if got := p.MCPServerHosts["docs"]; !slices.Equal(got, []string{"api.example.com", "*.cdn.example.org"}) {
		t.Errorf("docs's hosts: %v", got)
	}
	if _, ok := p.MCPServerHosts["nosuch"]; ok {
		t.Error("a server the project does not name was given a host")
	}
	docs := p.ServerHosts("docs")
	if !slices.Contains(docs, "api.example.com") || !slices.Contains(docs, "*.cdn.example.org") || !slices.Contains(docs, "pkg.example.com") {
		t.Errorf("docs's proxy list: %v", docs)
	}
	for who, list := range map[string][]string{"the project's commands": p.Hosts(), "calc": p.ServerHosts("calc")} {
		if slices.Contains(list, "api.example.com") || slices.Contains(list, "*.cdn.example.org") || !slices.Contains(list, "pkg.example.com") {
			t.Errorf("%s's list: %v", who, list)
		}
	}
	if !slices.Equal(p.DeniedHosts(), []string{"evil.example.com"}) {
		t.Errorf("denied: %v", p.DeniedHosts())
	}

	// Saved and read back through the user's settings file.
	store := NewStore(filepath.Join(t.TempDir(), "settings.json"))
	if err := store.SetProject("/p", p); err != nil {
		t.Fatal(err)
	}
	back, err := store.Project("/p")
	if err != nil || !slices.Equal(back.ServerHosts("docs"), docs) {
		t.Fatalf("read back: %v, %v", back.MCPServerHosts, err)
	}

	p.RemoveServerHost("docs", "API.example.COM")
	p.RemoveServerHost("docs", "never.example.com")
	if got := p.MCPServerHosts["docs"]; !slices.Equal(got, []string{"*.cdn.example.org"}) {
		t.Errorf("after removing api.example.com: %v", got)
	}
	if slices.Contains(p.ServerHosts("docs"), "api.example.com") {
		t.Error("a removed host is still in the server's list")
	}
	delete(p.MCPServers, "docs")
	p.PruneServerHosts()
	if p.MCPServerHosts != nil {
		t.Errorf("the hosts of a server no longer named were kept: %v", p.MCPServerHosts)
	}
}
