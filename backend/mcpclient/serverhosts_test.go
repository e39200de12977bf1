package mcpclient

import (
	"encoding/json"
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/mcpclient/mcpfixture"
	"github.com/rooted-dev/rooted/backend/netproxy/httpproxy"
	"github.com/rooted-dev/rooted/backend/permissions"
	"github.com/rooted-dev/rooted/backend/settings"
)

// A host allowed for one program server (the panel's Allow HOST for SERVER) is reached by that server's proxy at
// its next connection, with no restart, while another server of the same project is still refused it and its
// status still lists it; a deny rule still wins over the grant; removing the grant refuses the host again at the
// server's next connection. (That the project's commands are refused the host too is TestExecShellAllowList...'s
// in backend/tools: their proxy's list is settings.Project.Hosts, which holds no server's hosts.)
func TestHostAllowedForOneServer(t *testing.T) {
	ap := mcpfixture.HelloServer(t)
	f := newFixture(t, eras[0], nil, nil)
	f.m.opts.Proxy = HTTPProxy(httpproxy.Options{Resolver: mcpfixture.Names{"api.example.com": ap.Addr()}, Exempt: []netip.AddrPort{ap}})
	f.allowList(t)
	update := func(change func(*settings.Project) error) {
		t.Helper()
		if err := f.store.UpdateProject(f.root, change); err != nil {
			t.Fatal(err)
		}
	}
	update(func(p *settings.Project) error {
		p.MCPServers["other"] = p.MCPServers["fx"]
		_, err := p.AllowServerHost("fx", "API.example.com")
		return err
	})
	fetch := func(server, url string) Result {
		t.Helper()
		args, _ := json.Marshal(mcpfixture.FetchIn{URL: url})
		out, e := f.call(t, "mcp__"+server+"__fetch", string(args))
		if e != nil {
			t.Fatalf("%s fetch %s: %v", server, url, e)
		}
		var r Result
		if err := json.Unmarshal(out, &r); err != nil || len(r.Content) != 1 {
			t.Fatalf("%s fetch %s: %s", server, url, out)
		}
		return r
	}
	api := fmt.Sprintf("http://api.example.com:%d/", ap.Port())
	reached := fetch("fx", api)
	st := f.m.Status()
	if len(st) != 2 || st[0].Sandbox == nil || st[0].Sandbox.Proxy == "" {
		if len(st) == 2 && st[0].Sandbox != nil && st[0].Sandbox.NetworkNote != "" {
			t.Skipf("no network namespace can be made here: %s", st[0].Sandbox.NetworkNote)
		}
		t.Fatalf("the server's sandbox does not say allow-list mode held: %+v", st)
	}
	if !strings.HasPrefix(reached.Content[0].Text, "200 OK") || !strings.Contains(reached.Content[0].Text, "hello from api.example.com") || len(reached.NetworkRefused) != 0 {
		t.Errorf("the server the host is allowed for: %+v", reached)
	}
	if st[0].Name != "fx" || !slices.Equal(st[0].AllowedHosts, []string{"api.example.com"}) || len(st[0].RefusedHosts) != 0 {
		t.Errorf("fx's status: allowed %v, refused %+v", st[0].AllowedHosts, st[0].RefusedHosts)
	}

	refused := fetch("other", api)
	if !strings.HasPrefix(refused.Content[0].Text, "403") || !slices.Equal(refused.NetworkRefused, []string{"api.example.com"}) ||
		!strings.Contains(refused.Hint, "allow it for other (Settings, MCP servers: Allow under other") {
		t.Errorf("another server of the project: %+v", refused)
	}
	st = f.m.Status()
	if st[1].Name != "other" || len(st[1].AllowedHosts) != 0 || len(st[1].RefusedHosts) != 1 || st[1].RefusedHosts[0].Host != "api.example.com" || !st[1].RefusedHosts[0].Allowable {
		t.Errorf("the other server's status: allowed %v, refused %+v", st[1].AllowedHosts, st[1].RefusedHosts)
	}

	pid := f.m.servers["fx"].conn.proc.Pid()
	update(func(p *settings.Project) error {
		p.Rules = append(p.Rules, permissions.Rule{Action: permissions.Deny, Tool: permissions.Network, Domain: "api.example.com"})
		return nil
	})
	if denied := fetch("fx", api); !strings.HasPrefix(denied.Content[0].Text, "403") || !slices.Equal(denied.NetworkRefused, []string{"api.example.com"}) {
		t.Errorf("a deny rule did not win over the server's grant: %+v", denied)
	}
	update(func(p *settings.Project) error {
		p.Rules = nil
		p.RemoveServerHost("fx", "api.example.com")
		return nil
	})
	if removed := fetch("fx", api); !strings.HasPrefix(removed.Content[0].Text, "403") || !slices.Equal(removed.NetworkRefused, []string{"api.example.com"}) {
		t.Errorf("after the grant was removed: %+v", removed)
	}
	if now := f.m.servers["fx"].conn.proc.Pid(); now != pid {
		t.Errorf("the server was started again (%d, then %d) to take the change", pid, now)
	}
	if st = f.m.Status(); len(st[0].AllowedHosts) != 0 || len(st[0].RefusedHosts) != 1 || st[0].RefusedHosts[0].Host != "api.example.com" {
		t.Errorf("fx's status after the removal: allowed %v, refused %+v", st[0].AllowedHosts, st[0].RefusedHosts)
	}
}
