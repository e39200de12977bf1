package app

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/keystore"
	"github.com/rooted-dev/rooted/backend/mcpclient/mcpfixture"
	"github.com/rooted-dev/rooted/backend/permissions"
	"github.com/rooted-dev/rooted/backend/settings"
)

// The window's agent gets a project's MCP servers' tools through the bound tool list and call, the approval
// check asks about them (a foreign read-only hint counts for nothing), a deny rule refuses them, Settings shows
// the server connected, another project open beside it has none of them, and closing the project ends them.
func TestMCPServersAsTheWindowSeesThem(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir, other := t.TempDir(), t.TempDir()
	svc := openServices(t)
	proj, err := svc.Projects.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	id := proj.ID
	if err := svc.settings.SetProject(proj.Root, settings.Project{MCPServers: map[string]settings.MCPServer{
		"calc": {Command: self, Env: map[string]string{mcpfixture.Env: "2026"}, Readable: []string{filepath.Dir(self)}},
	}}); err != nil {
		t.Fatal(err)
	}
	out, err := svc.Tools.Call(id, "mcp__calc__add", `{"a": 40, "b": 2}`)
	if err != nil || !strings.Contains(out, `"text":"42"`) {
		t.Fatalf("call: %s %v", out, err)
	}
	specs, err := svc.Tools.Specs(id)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range specs {
		names = append(names, s.Name)
		if s.Name == "mcp__calc__add" && s.ReadOnly {
			t.Error("the server's readOnlyHint made add read-only")
		}
	}
	if !strings.Contains(strings.Join(names, ","), "mcp__calc__add") {
		t.Fatalf("specs: %v", names)
	}
	if c := svc.Permissions.Check(id, "mcp__calc__add", `{"a":1,"b":2}`); c.Action != "" || c.Error != "" || c.ReadOnly {
		t.Errorf("check with no rule (the window asks): %+v", c)
	}
	if err := svc.settings.UpdateProject(proj.Root, func(p *settings.Project) error {
		p.Rules = append(p.Rules, permissions.Rule{Action: permissions.Deny, Tool: "mcp__calc__*"})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if c := svc.Permissions.Check(id, "mcp__calc__add", `{"a":1,"b":2}`); c.Action != "deny" {
		t.Errorf("check under deny mcp__calc__*: %+v", c)
	}
	if _, err := svc.Tools.Call(id, "mcp__calc__add", `{"a":1,"b":2}`); err == nil || !strings.Contains(err.Error(), "permission_denied") {
		t.Errorf("a call under deny mcp__calc__* ran: %v", err)
	}
	st, _ := svc.MCPServers.Status(id)
	if len(st) != 1 || st[0].State != "connected" || len(st[0].Tools) != 7 {
		b, _ := json.Marshal(st)
		t.Errorf("status: %s", b)
	}
	beside, err := svc.Projects.Open(other)
	if err != nil {
		t.Fatal(err)
	}
	if st, _ := svc.MCPServers.Status(beside.ID); len(st) != 0 {
		t.Errorf("another project shows the first one's servers: %+v", st)
	}
	if st, _ := svc.MCPServers.Status(id); len(st) != 1 || st[0].State != "connected" {
		t.Errorf("opening another project beside it ended the first one's servers: %+v", st)
	}
	// Settings edits the entry: a mistake changes nothing; a fix restarts the servers with it.
	if _, err := svc.MCPServers.SaveConfig(id, `{"calc": {"command": "x", "netwrok": true}}`); err == nil || !strings.Contains(err.Error(), "invalid_argument") {
		t.Errorf("a misspelt grant was saved: %v", err)
	}
	if text, _ := svc.MCPServers.Config(id); !strings.Contains(text, mcpfixture.Env) {
		t.Errorf("config after a refused save: %s", text)
	}
	if st, err := svc.MCPServers.SaveConfig(id, `{}`); err != nil || len(st) != 0 {
		t.Errorf("removing every server: %+v %v", st, err)
	}
	// Closing the project ends its servers, and nothing starts them again.
	if _, err := svc.MCPServers.SaveConfig(id, fmt.Sprintf(`{"calc": {"command": %q, "env": {%q: "2026"}, "readable": [%q]}}`, self, mcpfixture.Env, filepath.Dir(self))); err != nil {
		t.Fatal(err)
	}
	w, _ := svc.workspaces.Get(id)
	ext := w.Extension().(*projectServers)
	m := ext.current()
	if _, ok := m.DynamicTool("mcp__calc__add"); !ok {
		t.Fatal("the server did not start again after the save")
	}
	if err := svc.Projects.Close(id); err != nil {
		t.Fatal(err)
	}
	if got := ext.current(); got != nil {
		t.Error("a closed project's servers can still be started")
	}
	after := m.Status()
	if len(after) != 1 {
		t.Fatalf("the closed project's server is not listed: %+v", after)
	}
	for _, s := range after {
		if s.State == "connected" {
			t.Errorf("a closed project's server is still connected: %+v", s)
		}
	}
}

// A secret stored from Settings reaches the server whose entry names it as ${keyring:NAME}, and is kept in a file
// only the user reads, not in the settings file; the window lists its name, never its value.
func TestMCPServerSecretFromSettings(t *testing.T) {
	data := t.TempDir()
	t.Setenv("XDG_DATA_HOME", data)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	svc := openServices(t)
	proj, err := svc.Projects.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	names, err := svc.MCPServers.SetSecret("calc-token", "tok-from-settings")
	if err != nil || len(names) != 1 || names[0] != "calc-token" {
		t.Fatalf("set secret: %v %v", names, err)
	}
	if _, err := svc.MCPServers.SetSecret("a/b", "x"); err == nil || !strings.Contains(err.Error(), "invalid_argument") {
		t.Errorf("a bad secret name: %v", err)
	}
	if _, err := svc.MCPServers.SaveConfig(proj.ID, fmt.Sprintf(`{"calc": {"command": %q, "env": {%q: "2026", "CALC_TOKEN": "${keyring:calc-token}"}, "readable": [%q]}}`,
		self, mcpfixture.Env, filepath.Dir(self))); err != nil {
		t.Fatal(err)
	}
	out, err := svc.Tools.Call(proj.ID, "mcp__calc__env", `{}`)
	if err != nil || !strings.Contains(out, "CALC_TOKEN=tok-from-settings") {
		t.Fatalf("the server's environment: %s %v", out, err)
	}
	file := filepath.Join(data, "rooted", "mcp-secrets.json")
	if info, err := os.Stat(file); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("the secrets file: %v %v", info, err)
	}
	// No keyring answers here (the tests' bus is disabled): Settings says the file, and why.
	ks, err := svc.MCPServers.SecretStorage()
	if err != nil || ks.Keyring || ks.Name != keystore.Shown(file) || !strings.Contains(ks.Reason, "no session bus") {
		t.Errorf("SecretStorage = %+v, %v", ks, err)
	}
	path, _ := settings.DefaultPath()
	if b, _ := os.ReadFile(path); strings.Contains(string(b), "tok-from-settings") || !strings.Contains(string(b), "${keyring:calc-token}") {
		t.Errorf("the settings file: %s", b)
	}
}

// A request sent just after the servers restarted (or the project opened) waits for them: Settled answers once
// they are connected, and the tool list then has their tools.
func TestSettledWaitsForServersStarting(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	svc := openServices(t)
	svc.MCPServers.settle = time.Minute // the race-built test binary, as the server, starts slowly on a busy machine
	proj, err := svc.Projects.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.MCPServers.SaveConfig(proj.ID, fmt.Sprintf(`{"calc": {"command": %q, "env": {%q: "2026"}, "readable": [%q]}}`, self, mcpfixture.Env, filepath.Dir(self))); err != nil {
		t.Fatal(err)
	}
	for round := range 3 {
		if _, err := svc.MCPServers.Restart(proj.ID); err != nil {
			t.Fatal(err)
		}
		st, err := svc.MCPServers.Settled(proj.ID)
		if err != nil || len(st) != 1 || st[0].State != "connected" {
			t.Fatalf("round %d: settled: %+v %v", round, st, err)
		}
		specs, err := svc.Tools.Specs(proj.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(specs, func(s ToolSpec) bool { return s.Name == "mcp__calc__add" }) {
			t.Errorf("round %d: the tool list after Settled lacks the server's tools", round)
		}
	}
	if st, err := svc.MCPServers.Settled(proj.ID); err != nil || len(st) != 1 {
		t.Errorf("settled again, nothing starting: %+v %v", st, err)
	}
}
