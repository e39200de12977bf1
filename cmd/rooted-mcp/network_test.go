package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/cli"
	"github.com/rooted-dev/rooted/backend/mcpclient"
	"github.com/rooted-dev/rooted/backend/mcpclient/mcpfixture"
	"github.com/rooted-dev/rooted/backend/netproxy/httpproxy"
	"github.com/rooted-dev/rooted/backend/settings"
)

// allowListProject is a project whose programs reach only pkg.example.com, in a fresh user configuration, with
// the fixture server of era as "fx" (its change applied): what rooted call reads through rooted-mcp.
func allowListProject(t *testing.T, era string, change func(*settings.MCPServer)) string {
	t.Helper()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	root := t.TempDir()
	entry := mcpfixture.Config(t, era)
	if change != nil {
		change(&entry)
	}
	path, err := settings.DefaultPath()
	if err != nil {
		t.Fatal(err)
	}
	p := settings.Project{
		Network: settings.NetworkAllowlist, NetworkHosts: []string{"pkg.example.com"},
		MCPServers: map[string]settings.MCPServer{"fx": entry},
	}
	if err := settings.NewStore(path).SetProject(root, p); err != nil {
		t.Fatal(err)
	}
	return root
}

// proxied starts root's servers with c's MCP client and says whether the first one's sandbox holds allow-list
// mode; it skips the test where this machine can make no network namespace (allow-list mode is then off for every
// program, the window's servers too).
func proxied(t *testing.T, c client, root string) []mcpclient.Status {
	t.Helper()
	m := c.newManager(root)
	defer m.Close()
	m.Start()
	m.Wait(t.Context())
	st := m.Status()
	if len(st) == 1 && st[0].Sandbox != nil && st[0].Sandbox.Proxy == "" && st[0].Sandbox.NetworkNote != "" {
		t.Skipf("no network namespace can be made here: %s", st[0].Sandbox.NetworkNote)
	}
	return st
}

// call runs rooted call of tool with in as rooted-mcp runs it, with c's MCP client.
func call(t *testing.T, c client, root, tool string, in any) (int, string, string) {
	t.Helper()
	args, _ := json.Marshal(in)
	var stdout, stderr bytes.Buffer
	code := cli.CallExtras(t.Context(), cli.IO{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr},
		[]string{tool, "--root", root, string(args)}, cli.Extras{OpenForeign: c.openForeign})
	return code, stdout.String(), stderr.String()
}

// In a project whose programs reach only listed hosts, a program MCP server that rooted call starts through
// rooted-mcp gets the proxy the window gives its servers: through it the server reaches a listed host, and an
// unlisted one is refused by name, the call's result telling the model which and what the user can do. Without
// the proxy the server would have no network at all, and the listed host would be out of reach too.
func TestAllowListServersGetTheProxy(t *testing.T) {
	ap := mcpfixture.HelloServer(t)
	// The fixture's loopback address stands in for the hosts, as the window's development build lets it.
	c := client{proxy: httpproxy.Options{Resolver: mcpfixture.Names{"pkg.example.com": ap.Addr(), "other.example.com": ap.Addr()}, Exempt: []netip.AddrPort{ap}}}
	for _, era := range []string{"2025", "2026"} {
		t.Run(era, func(t *testing.T) {
			root := allowListProject(t, era, nil)
			if st := proxied(t, c, root); len(st) != 1 || st[0].State != "connected" || st[0].Sandbox == nil || st[0].Sandbox.Proxy == "" {
				t.Fatalf("the server's sandbox does not say allow-list mode held: %+v", st)
			}
			code, out, errs := call(t, c, root, "mcp__fx__fetch", mcpfixture.FetchIn{URL: fmt.Sprintf("http://pkg.example.com:%d/", ap.Port())})
			if code != cli.ExitOK || !strings.Contains(out, "200 OK") || !strings.Contains(out, "hello from pkg.example.com") {
				t.Errorf("a listed host: exit %d\n%s\n%s", code, out, errs)
			}
			code, out, errs = call(t, c, root, "mcp__fx__fetch", mcpfixture.FetchIn{URL: fmt.Sprintf("http://other.example.com:%d/", ap.Port())})
			var refused mcpclient.Result
			_ = json.Unmarshal([]byte(out), &refused)
			if code != cli.ExitOK || !strings.Contains(out, "403 Forbidden by Rooted: other.example.com") || strings.Contains(out, "hello from") ||
				!slices.Equal(refused.NetworkRefused, []string{"other.example.com"}) || !strings.Contains(refused.Hint, "the MCP server fx was refused other.example.com") {
				t.Errorf("an unlisted host: exit %d\n%s\n%s", code, out, errs)
			}
		})
	}
}

// A server that downloads what it needs as it starts (npx, from a registry the project does not list) is refused
// it by the proxy: rooted call fails with server_failed naming the host, and the server's status lists it as one
// a rule can allow.
func TestAllowListServerRefusedAtStart(t *testing.T) {
	ap := mcpfixture.HelloServer(t)
	c := client{proxy: httpproxy.Options{Resolver: mcpfixture.Names{"registry.example.com": ap.Addr()}, Exempt: []netip.AddrPort{ap}}}
	url := fmt.Sprintf("https://registry.example.com:%d/pkg.tgz", ap.Port())
	root := allowListProject(t, "2026", func(e *settings.MCPServer) { e.Env[mcpfixture.FetchFirstEnv] = url })
	st := proxied(t, c, root)
	if len(st) != 1 || st[0].State != "failed" || !strings.Contains(st[0].Error, "while it started, the MCP server fx was refused registry.example.com") ||
		!strings.Contains(st[0].Error, "it reached only the hosts this project lists") || strings.Contains(st[0].Error, "it had no network") {
		t.Fatalf("the failed start does not name the refused host: %+v", st)
	}
	if r := st[0].RefusedHosts; len(r) != 1 || r[0].Host != "registry.example.com" || !r[0].Allowable || r[0].Count < 1 {
		t.Errorf("the status's refused hosts: %+v", r)
	}
	code, out, errs := call(t, c, root, "mcp__fx__add", map[string]int{"a": 1, "b": 2})
	var failed struct {
		Error struct{ Code, Message string }
	}
	_ = json.Unmarshal([]byte(out), &failed)
	if code != cli.ExitToolError || failed.Error.Code != "server_failed" || !strings.Contains(failed.Error.Message, "while it started, the MCP server fx was refused registry.example.com") {
		t.Errorf("rooted call of the server that cannot start: exit %d\n%s\n%s", code, out, errs)
	}
}
