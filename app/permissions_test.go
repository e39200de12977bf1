package app

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The window's permission services as the approval card and Settings use them: rules added and read back by a
// new window (a restart), a check that answers a call that cannot run, and the check after an edit finding the
// compile error it introduced.
func TestPermissionsAndDiagnosticsAsTheWindowDoes(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/calc\n\ngo 1.21\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "calc.go"), []byte("package calc\n\nfunc Add(a, b int) int { return a + b }\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "use.go"), []byte("package calc\n\nvar Five = Add(2, 3)\n"), 0o644)
	open := func() *services {
		svc, err := newServices(Options{RecentFile: filepath.Join(t.TempDir(), "recent.json")})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			svc.workspaces.CloseAll()
		})
		if _, err := svc.Projects.Open(dir); err != nil {
			t.Fatal(err)
		}
		return svc
	}
	svc := open()
	if c := svc.Permissions.Check(cur(t, svc), "exec_shell", `{"command": "ls | wc -l"}`); !strings.Contains(c.Error, `"invalid_argument"`) {
		t.Errorf("ls | wc -l: %+v", c)
	}
	if c := svc.Permissions.Check(cur(t, svc), "exec_shell", `{"command": "go test ./..."}`); c.Error != "" || c.Action != "ask" || c.Suggest != "go test" {
		t.Errorf("go test before the rule: %+v", c)
	}
	if _, err := svc.Permissions.AddRule(cur(t, svc), Rule{Action: "allow", Tool: "exec_shell", Command: "go test"}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Permissions.AddRule(cur(t, svc), Rule{Action: "allow", Tool: "exec_shell"}); err == nil {
		t.Error("an allow rule for every command was accepted")
	}
	again := open() // a restart: the rule is in the user's settings
	if c := again.Permissions.Check(cur(t, again), "exec_shell", `{"command": "go  test -run X ./..."}`); c.Action != "allow" || c.Rule == nil || c.Rule.Command != "go test" {
		t.Errorf("go test after a restart: %+v", c)
	}
	if rules, _ := again.Permissions.Rules(cur(t, again)); len(rules) != 1 {
		t.Errorf("rules: %+v", rules)
	}

	// An edit that breaks the package: the check finds the problem in the changed file and, after an earlier
	// check of the same package, the one it caused elsewhere.
	if r := again.Diagnostics.After(cur(t, again), []string{"calc.go"}); len(r.Problems) != 0 || len(r.Checks) != 1 || r.Error != "" {
		t.Fatalf("clean package: %+v", r)
	}
	os.WriteFile(filepath.Join(dir, "calc.go"), []byte("package calc\n\nfunc Add(a, b, c int) int { return a + b + d }\n"), 0o644)
	// go vet stops at the first type error, here in the caller the edit broke.
	r := again.Diagnostics.After(cur(t, again), []string{"calc.go"})
	if r.Error != "" || len(r.Problems) != 1 || r.Problems[0] != "use.go:3: not enough arguments in call to Add" {
		t.Fatalf("the caller the edit broke: %+v", r)
	}
	// A problem in the changed file itself is always the edit's.
	os.WriteFile(filepath.Join(dir, "use.go"), []byte("package calc\n\nvar Five = Add(2, 3, 0)\n"), 0o644)
	r = again.Diagnostics.After(cur(t, again), []string{"calc.go"})
	if r.Error != "" || len(r.Problems) != 1 || r.Problems[0] != "calc.go:3: undefined: d" {
		t.Fatalf("the changed file: %+v", r)
	}
	if _, err := again.Diagnostics.SetMode(cur(t, again), "off"); err != nil {
		t.Fatal(err)
	}
	if r := again.Diagnostics.After(cur(t, again), []string{"calc.go"}); len(r.Checks) != 0 {
		t.Errorf("off: %+v", r)
	}
}

// Settings' Remove names a rule, not a list to write back: a rule an approval card added while the screen was open
// stays, a rule spelt as the user typed it is found as it was saved, and removing one already gone changes nothing.
func TestRemoveRuleKeepsRulesAddedMeanwhile(t *testing.T) {
	svc, p := openProject(t, map[string]string{"go.mod": "module example.com/m\n"})
	commands := func(rs []Rule) []string {
		var out []string
		for _, r := range rs {
			out = append(out, r.Command+r.Domain)
		}
		return out
	}
	for _, r := range []Rule{
		{Action: "allow", Tool: "exec_shell", Command: "go test"},
		{Action: "deny", Tool: "exec_shell", Command: "git push"},
	} {
		if _, err := svc.Permissions.AddRule(p.ID, r); err != nil {
			t.Fatal(err)
		}
	}
	shown, err := svc.Permissions.Rules(p.ID) // the screen's list
	if err != nil {
		t.Fatal(err)
	}
	// An approval card's Always while the screen shows its list.
	if _, err := svc.Permissions.AddRule(p.ID, Rule{Action: "allow", Tool: "network", Domain: "proxy.golang.org"}); err != nil {
		t.Fatal(err)
	}
	left, err := svc.Permissions.RemoveRule(p.ID, Rule{Action: shown[0].Action, Tool: shown[0].Tool, Command: "go  test"})
	if err != nil {
		t.Fatal(err)
	}
	if got := commands(left); !slices.Equal(got, []string{"git push", "proxy.golang.org"}) {
		t.Errorf("after removing go test: %q, want the rule added meanwhile kept", got)
	}
	again, err := svc.Permissions.RemoveRule(p.ID, shown[0])
	if err != nil || !slices.Equal(commands(again), commands(left)) {
		t.Errorf("removing it again: %q, %v; want no change", commands(again), err)
	}
	if saved, _ := svc.Permissions.Rules(p.ID); !slices.Equal(commands(saved), commands(left)) {
		t.Errorf("saved: %q, want %q", commands(saved), commands(left))
	}
}
