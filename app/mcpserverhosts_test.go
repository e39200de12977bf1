package app

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/rooted-dev/rooted/backend/mcpclient"
	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/tool"
)

// The panel's Allow HOST for SERVER keeps the host in the user's settings for that server alone (the project's
// list, which its commands get, does not hold it) and the server's status lists it; Remove takes it back. A host
// that is not one, or a server the project does not name, is refused with a stable code and changes nothing; a
// server removed from mcp_servers takes its hosts with it.
func TestMCPServerHostBindings(t *testing.T) {
	svc := openServices(t)
	proj, err := svc.Projects.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	id := proj.ID
	if err := svc.settings.SetProject(proj.Root, settings.Project{Network: settings.NetworkAllowlist, MCPServers: map[string]settings.MCPServer{
		"docs": {Command: "docs-server", Disabled: true}, "calc": {Command: "calc-server", Disabled: true},
	}}); err != nil {
		t.Fatal(err)
	}
	allowed := func(st []mcpclient.Status, name string) []string {
		for _, s := range st {
			if s.Name == name {
				return s.AllowedHosts
			}
		}
		t.Fatalf("no status for %s: %+v", name, st)
		return nil
	}
	st, err := svc.MCPServers.AllowHost(id, "docs", "API.Example.com.")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(allowed(st, "docs"), []string{"api.example.com"}) || len(allowed(st, "calc")) != 0 {
		t.Errorf("status after Allow: %+v", st)
	}
	saved, err := svc.settings.Project(proj.Root)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(saved.Hosts(), "api.example.com") || !slices.Contains(saved.ServerHosts("docs"), "api.example.com") || slices.Contains(saved.ServerHosts("calc"), "api.example.com") {
		t.Errorf("saved: commands %v, docs %v, calc %v", saved.Hosts(), saved.ServerHosts("docs"), saved.ServerHosts("calc"))
	}

	for _, tc := range []struct {
		id, server, host, code, field string
	}{
		{id, "docs", "*", tool.CodeInvalidArgument, "host"},
		{id, "docs", "https://api.example.com/x", tool.CodeInvalidArgument, "host"},
		{id, "nosuch", "api.example.com", tool.CodeNotFound, "server"},
		{"no-such-project", "docs", "api.example.com", tool.CodeNoProject, ""},
	} {
		_, err := svc.MCPServers.AllowHost(tc.id, tc.server, tc.host)
		var env tool.Envelope
		if err == nil || json.Unmarshal([]byte(err.Error()), &env) != nil || env.Error.Code != tc.code || env.Error.Field != tc.field {
			t.Errorf("AllowHost(%q, %q, %q) = %v, want %s on %q", tc.id, tc.server, tc.host, err, tc.code, tc.field)
		}
	}
	if after, _ := svc.settings.Project(proj.Root); !slices.Equal(after.MCPServerHosts["docs"], []string{"api.example.com"}) || len(after.MCPServerHosts) != 1 {
		t.Errorf("a refused Allow changed the settings: %v", after.MCPServerHosts)
	}

	if st, err = svc.MCPServers.RemoveHost(id, "docs", "api.example.com"); err != nil || len(allowed(st, "docs")) != 0 {
		t.Errorf("after Remove: %+v, %v", st, err)
	}
	if _, err := svc.MCPServers.AllowHost(id, "calc", "*.cdn.example.org"); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.MCPServers.SaveConfig(id, `{"docs": {"command": "docs-server", "disabled": true}}`); err != nil {
		t.Fatal(err)
	}
	if after, _ := svc.settings.Project(proj.Root); after.MCPServerHosts != nil {
		t.Errorf("the hosts of a server removed from mcp_servers were kept: %v", after.MCPServerHosts)
	}
}
