package mcpclient

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/testtree"

	"github.com/rooted-dev/rooted/backend/sandbox"

	"github.com/rooted-dev/rooted/backend/mcpclient/mcpfixture"
	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/tool"
)

// The test binary doubles as the sandbox helper, as the rooted binary does, and as the fixture servers.
func TestMain(m *testing.M) {
	sandbox.RunHelperIfAsked()
	mcpfixture.RunIfAsked()
	os.Exit(m.Run())
}

var eras = []string{"2025", "2026"}

// fixture is a project with the fixture server of era configured as "fx", and a manager for it.
type fixture struct {
	root, secret string
	m            *Manager
	reg          *tool.Registry
	store        *settings.Store
}

func newFixture(t testing.TB, era string, change func(*settings.MCPServer), probe func(sandbox.Policy) sandbox.Info) *fixture {
	t.Helper()
	base := t.TempDir()
	root := filepath.Join(base, "project")
	secretDir := filepath.Join(base, "home", ".ssh")
	for _, d := range []string{root, secretDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	secret := filepath.Join(secretDir, "id_ed25519")
	if err := os.WriteFile(secret, []byte("PRIVATE-KEY-MATERIAL"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := mcpfixture.Config(t, era)
	if change != nil {
		change(&cfg)
	}
	store := settings.NewStore(filepath.Join(base, "settings.json"))
	if err := store.SetProject(root, settings.Project{MCPServers: map[string]settings.MCPServer{"fx": cfg}}); err != nil {
		t.Fatal(err)
	}
	m := New(Options{Root: root, Settings: store, DataDir: filepath.Join(base, "data"), Version: "test", Probe: probe})
	t.Cleanup(func() { _ = m.Close() })
	return &fixture{root: root, secret: secret, m: m, reg: tool.NewRegistry(nil).WithDynamic(m), store: store}
}

// allowList puts f's project in allow-list mode: its programs, the server too, reach only hosts.
func (f *fixture) allowList(t testing.TB, hosts ...string) {
	t.Helper()
	p, err := f.store.Project(f.root)
	if err != nil {
		t.Fatal(err)
	}
	p.Network, p.NetworkHosts = settings.NetworkAllowlist, hosts
	if err := f.store.SetProject(f.root, p); err != nil {
		t.Fatal(err)
	}
}

func (f *fixture) call(t *testing.T, name, args string) (json.RawMessage, *tool.Error) {
	t.Helper()
	return f.reg.Call(context.Background(), name, []byte(args))
}

func TestAddInEachEra(t *testing.T) {
	for _, era := range eras {
		t.Run(era, func(t *testing.T) {
			f := newFixture(t, era, nil, nil)
			out, e := f.call(t, "mcp__fx__add", `{"a": 2, "b": 40}`)
			if e != nil {
				t.Fatalf("add: %v (status %+v)", e, f.m.Status())
			}
			var r Result
			if err := json.Unmarshal(out, &r); err != nil || len(r.Content) != 1 || r.Content[0].Text != "42" {
				t.Fatalf("add returned %s", out)
			}
			st := f.m.Status()
			want := map[string]string{"2025": "2025-06-18", "2026": "2026-07-28"}[era]
			if len(st) != 1 || st[0].State != "connected" || st[0].Protocol != want || len(st[0].Tools) != 7 {
				t.Errorf("status %+v, want connected over %s with 7 tools", st, want)
			}
			names := strings.Join(f.reg.Names(), ",")
			if !strings.Contains(names, "mcp__fx__add") || !strings.Contains(names, "mcp__fx__steal") {
				t.Errorf("registry lists %s", names)
			}
			// The server said add only reads; that never spares a call the approval.
			if tl, _ := f.reg.Lookup("mcp__fx__add"); tl.Spec().ReadOnly {
				t.Error("a foreign readOnlyHint made the tool read-only")
			}
			if _, e := f.call(t, "mcp__fx__add", `{"a": "two"}`); e == nil || e.Code != tool.CodeInvalidArgument {
				t.Errorf("arguments against the schema: %v", e)
			}
		})
	}
}

// TestSandboxedServer: the server cannot read a secret outside the project nor connect anywhere; the same server
// started plainly can do both, so the test fails without the sandbox.
func TestSandboxedServer(t *testing.T) {
	if !sandbox.Probe(sandbox.Policy{}).Active {
		t.Skip("no sandbox on this kernel")
	}
	ln := testtree.Listener(t, "")
	plain := func(sandbox.Policy) sandbox.Info { return sandbox.Info{} }
	for _, era := range eras {
		for _, sandboxed := range []bool{true, false} {
			name := era + "/plain"
			var probe func(sandbox.Policy) sandbox.Info
			if sandboxed {
				name = era + "/sandboxed"
			} else {
				probe = plain
			}
			t.Run(name, func(t *testing.T) {
				f := newFixture(t, era, nil, probe)
				args, _ := json.Marshal(mcpfixture.StealIn{Path: f.secret, Addr: ln.String()})
				out, e := f.call(t, "mcp__fx__steal", string(args))
				if e != nil {
					t.Fatalf("steal: %v", e)
				}
				text := string(out)
				gotSecret := strings.Contains(text, "PRIVATE-KEY-MATERIAL")
				connected := strings.Contains(text, "connect: ok")
				if sandboxed && (gotSecret || connected) {
					t.Errorf("inside the sandbox the server read the secret (%v) or connected (%v): %s", gotSecret, connected, text)
				}
				if !sandboxed && (!gotSecret || !connected) {
					t.Errorf("started plainly the server should reach both, or the test proves nothing: %s", text)
				}
			})
		}
	}
}

// TestNetworkGrant: a server the user grants the network connects.
func TestNetworkGrant(t *testing.T) {
	ln := testtree.Listener(t, "")
	f := newFixture(t, "2026", func(c *settings.MCPServer) { c.Network = true }, nil)
	args, _ := json.Marshal(mcpfixture.StealIn{Path: f.secret, Addr: ln.String()})
	out, e := f.call(t, "mcp__fx__steal", string(args))
	if e != nil || !strings.Contains(string(out), "connect: ok") {
		t.Fatalf("with the network granted: %s %v", out, e)
	}
}

// TestHungServer: a call is cut off at the server's timeout, and the server restarted at the next call.
func TestHungServer(t *testing.T) {
	f := newFixture(t, "2025", func(c *settings.MCPServer) { c.TimeoutMS = 300 }, nil)
	if _, e := f.call(t, "mcp__fx__hang", `{}`); e == nil || e.Code != tool.CodeServerFailed || !strings.Contains(e.Message, "did not answer") {
		t.Fatalf("a hung call: %v", e)
	}
	if out, e := f.call(t, "mcp__fx__add", `{"a":1,"b":2}`); e != nil {
		t.Fatalf("after a hang: %s %v", out, e)
	}
}

// TestFlood: a server that writes without end on stderr and answers a line past MaxMessage is ended; what is kept
// of its stderr stays within StderrTail.
func TestFlood(t *testing.T) {
	for _, era := range eras {
		t.Run(era, func(t *testing.T) {
			f := newFixture(t, era, nil, nil)
			_, e := f.call(t, "mcp__fx__flood", `{}`)
			if e == nil || e.Code != tool.CodeServerFailed {
				t.Fatalf("a flooding server: %v", e)
			}
			for _, st := range f.m.Status() {
				if len(st.Stderr) > StderrTail+8 {
					t.Errorf("kept %d bytes of stderr", len(st.Stderr))
				}
			}
		})
	}
}

// TestFailureSaysWhy: a server that exits at once fails with its stderr and how to grant more.
func TestFailureSaysWhy(t *testing.T) {
	f := newFixture(t, "none", func(c *settings.MCPServer) {
		c.Command, c.Args, c.Env = "sh", []string{"-c", "echo cannot reach registry.npmjs.org >&2; exit 3"}, nil
	}, nil)
	_, e := f.call(t, "mcp__fx__anything", `{}`)
	if e == nil || e.Code != tool.CodeServerFailed || !strings.Contains(e.Message, "registry.npmjs.org") || !strings.Contains(e.Message, `"network": true`) {
		t.Fatalf("failure: %v", e)
	}
	st := f.m.Status()
	if st[0].State != "failed" || !strings.Contains(st[0].Stderr, "registry.npmjs.org") {
		t.Errorf("status %+v", st)
	}
}

// TestClose ends the project's servers.
func TestClose(t *testing.T) {
	f := newFixture(t, "2026", nil, nil)
	if _, e := f.call(t, "mcp__fx__add", `{"a":1,"b":1}`); e != nil {
		t.Fatal(e)
	}
	s := f.m.server("fx")
	s.mu.Lock()
	proc := s.conn.proc
	s.mu.Unlock()
	_ = f.m.Close()
	select {
	case <-proc.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the server outlived Close")
	}
	if len(f.reg.Names()) != 0 {
		t.Errorf("tools after Close: %v", f.reg.Names())
	}
}

func TestToolName(t *testing.T) {
	for _, c := range []struct{ server, tool, want string }{
		{"fs", "read_file", "mcp__fs__read_file"},
		{"my.srv", "a b", "mcp__my_srv__a_b"},
	} {
		if got := ToolName(c.server, c.tool); got != c.want {
			t.Errorf("ToolName(%q, %q) = %q, want %q", c.server, c.tool, got, c.want)
		}
	}
	long := ToolName("server", strings.Repeat("x", 100))
	if len(long) != maxName || long == ToolName("server", strings.Repeat("x", 101)) {
		t.Errorf("long names: %q", long)
	}
}

// TestToolsListChanged: a server that adds a tool and says so has it listed, in either era.
func TestToolsListChanged(t *testing.T) {
	for _, era := range eras {
		t.Run(era, func(t *testing.T) {
			f := newFixture(t, era, nil, nil)
			if _, e := f.call(t, "mcp__fx__grow", `{}`); e != nil {
				t.Fatal(e)
			}
			// The notification comes on its own, after the answer: wait for the list to follow it.
			deadline := time.Now().Add(10 * time.Second)
			for !strings.Contains(strings.Join(f.reg.Names(), ","), "mcp__fx__extra") {
				if time.Now().After(deadline) {
					t.Fatalf("the new tool was never listed: %v", f.reg.Names())
				}
				time.Sleep(10 * time.Millisecond)
			}
			if _, e := f.call(t, "mcp__fx__extra", `{}`); e != nil {
				t.Fatal(e)
			}
		})
	}
}

// TestServerThatExitsOnTheProbe: a 2025 server that exits on server/discover is started again and asked with
// initialize alone, and stays so at its next start.
func TestServerThatExitsOnTheProbe(t *testing.T) {
	f := newFixture(t, "2025strict", nil, nil)
	for range 2 {
		out, e := f.call(t, "mcp__fx__add", `{"a": 2, "b": 3}`)
		if e != nil || !strings.Contains(string(out), `"5"`) {
			t.Fatalf("add: %s %v (status %+v)", out, e, f.m.Status())
		}
		if st := f.m.Status(); st[0].Protocol != "2025-06-18" {
			t.Errorf("protocol %q", st[0].Protocol)
		}
		f.m.server("fx").stop()
	}
}
