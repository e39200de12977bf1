package tools

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/tool"
)

type guardedOut struct {
	execOut
	GitRestored []string `json:"git_restored"`
	Hint        string
}

// Nothing a command does leaves git something to run later: hooks and executable settings it writes into .git are
// put back (and the model told), ordinary changes to the configuration stay, and commands that would remove or
// overwrite a repository are refused. One row per way in.
func TestCommandsCannotPlantCodeInGit(t *testing.T) {
	reg, _, root := openRegistry(t, "main.go")
	git := exec.Command("git", "init", "-q")
	git.Dir = root
	if out, err := git.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	config := filepath.Join(root, ".git", "config")
	orig, _ := os.ReadFile(config)
	node := func(js string) string { return `{"command": "node", "args": ["-e", ` + jsonString(js) + `]}` }
	for _, row := range []struct {
		name, args, want string
	}{
		{"fsmonitor appended to .git/config", node(`require('fs').appendFileSync('.git/config', '[core]\n\tfsmonitor = "touch /tmp/pwned"\n')`), "restored .git/config: the command set core.fsmonitor"},
		{"an alias that runs a shell", node(`require('fs').appendFileSync('.git/config', '[alias]\n\tst = !sh -c id\n')`), "restored .git/config: the command set alias.st"},
		{"a clean filter", node(`require('fs').appendFileSync('.git/config', '[filter "x"]\n\tclean = sh evil.sh\n')`), "restored .git/config: the command set filter.x.clean"},
		{"hooksPath in config.worktree", node(`require('fs').writeFileSync('.git/config.worktree', '[core]\n\thooksPath = hooks\n')`), "removed .git/config.worktree: the command set core.hookspath"},
		{"a pre-commit hook", node(`require('fs').writeFileSync('.git/hooks/pre-commit', '#!/bin/sh\nid\n', {mode: 0o755})`), "removed .git/hooks/pre-commit, a hook the command added"},
		{".git/config deleted", node(`require('fs').unlinkSync('.git/config')`), "restored .git/config: the command removed it"},
	} {
		t.Run(row.name, func(t *testing.T) {
			out, e := call[guardedOut](t, reg, "exec_shell", row.args)
			if e != nil || out.ExitCode != 0 {
				t.Fatalf("%+v %v", out, e)
			}
			if !slices.Contains(out.GitRestored, row.want) || !strings.Contains(out.Hint, "Rooted put it back") {
				t.Errorf("git_restored %q, hint %q; want %q", out.GitRestored, out.Hint, row.want)
			}
			if now, _ := os.ReadFile(config); string(now) != string(orig) {
				t.Errorf(".git/config is now:\n%s", now)
			}
			if _, err := os.Stat(filepath.Join(root, ".git", "hooks", "pre-commit")); err == nil {
				t.Error("the hook stayed")
			}
		})
	}
	// An ordinary change to the configuration stays.
	out, e := call[guardedOut](t, reg, "exec_shell", `{"command": "git remote add origin https://example.com/x.git"}`)
	if e != nil || out.ExitCode != 0 || len(out.GitRestored) != 0 {
		t.Fatalf("git remote add: %+v %v", out, e)
	}
	if now, _ := os.ReadFile(config); !strings.Contains(string(now), "https://example.com/x.git") {
		t.Error("the new remote was undone")
	}
	// Commands that would remove or overwrite the repository are refused before they run.
	for _, args := range []string{
		`{"command": "rm -rf .git"}`, `{"command": "rm -rf ."}`, `{"command": "rm", "args": ["-r", "-f", "./"]}`,
		`{"command": "mv .git old"}`, `{"command": "touch .git/hooks/post-checkout"}`, `{"command": "cp main.go .git/hooks/pre-push"}`,
		`{"command": "mkdir .git/hooks/x"}`,
	} {
		_, e := call[guardedOut](t, reg, "exec_shell", args)
		if e == nil || e.Code != tool.CodePermissionDenied || !strings.Contains(e.Message, "nothing was run") {
			t.Errorf("%s: %+v", args, e)
		}
	}
	if _, err := os.Stat(filepath.Join(root, ".git", "HEAD")); err != nil {
		t.Fatal("the repository is gone")
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
