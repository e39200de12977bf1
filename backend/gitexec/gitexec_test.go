package gitexec

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/sandbox"
	"github.com/rooted-dev/rooted/backend/testtree"
)

func TestMain(m *testing.M) {
	sandbox.RunHelperIfAsked()
	UseSandbox()
	os.Exit(m.Run())
}

// A repository whose config and attributes name programs: none of them runs under the hardened git, whatever
// command asks for what they would answer.
func TestNoProgramFromTheRepositoryRuns(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(t.TempDir(), "MARKER")
	testtree.Git(t, dir, "init", "-q")
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("one\n"), 0o644)
	os.WriteFile(filepath.Join(dir, ".gitattributes"), []byte("*.txt filter=evil diff=evil\n"), 0o644)
	testtree.Git(t, dir, "add", ".")
	testtree.Git(t, dir, "commit", "-qm", "one")
	os.MkdirAll(filepath.Join(dir, ".git", "hooks"), 0o755)
	hook := "#!/bin/sh\necho hook >> " + marker + "\n"
	for _, h := range []string{"pre-commit", "post-checkout", "post-index-change", "reference-transaction"} {
		os.WriteFile(filepath.Join(dir, ".git", "hooks", h), []byte(hook), 0o755)
	}

	run := "echo RAN >> " + marker + "; false"
	cfg := "\n[core]\n\tfsmonitor = \"" + run + "\"\n\tpager = \"" + run + "\"\n\tsshCommand = \"" + run + "\"\n" +
		"[filter \"evil\"]\n\tclean = \"" + run + "\"\n\tsmudge = \"" + run + "\"\n\tprocess = \"" + run + "\"\n" +
		"[diff \"evil\"]\n\ttextconv = \"" + run + "\"\n\tcommand = \"" + run + "\"\n" +
		"[diff]\n\texternal = \"" + run + "\"\n"
	f, err := os.OpenFile(filepath.Join(dir, ".git", "config"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(cfg)
	f.Close()
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("two\n"), 0o644)
	c, err := Cmd{Dir: dir}.WithoutFilters(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"status", "--porcelain"},
		{"diff", "--no-ext-diff", "--no-textconv"},
		{"log", "-1", "--format=%s"},
		{"rev-parse", "--abbrev-ref", "HEAD"},
	} {
		if _, err := c.Run(context.Background(), nil, args...); err != nil {
			t.Errorf("git %v: %v", args, err)
		}
	}
	if b, err := os.ReadFile(marker); err == nil {
		t.Fatalf("a program named by the repository ran: %s", b)
	}
}

// Without the sandbox too: the hardening alone keeps every program of the repository from running.
func TestNoProgramRunsUnsandboxed(t *testing.T) {
	sandboxOK.Store(false)
	defer sandboxOK.Store(true)
	TestNoProgramFromTheRepositoryRuns(t)
}

// Nothing of this process's environment that steers git reaches it.
func TestEnvironmentIsAllowListed(t *testing.T) {
	t.Setenv("GIT_DIR", "/nonexistent")
	t.Setenv("GIT_EXTERNAL_DIFF", "/bin/false")
	t.Setenv("LD_PRELOAD", "/nonexistent.so")
	env := Env([][2]string{{"core.excludesFile", "/x"}}, "GIT_DIR=/mine", "GIT_CONFIG_COUNT=0")
	joined := "\n" + strings.Join(env, "\n") + "\n"
	for _, bad := range []string{"GIT_DIR=/nonexistent", "GIT_EXTERNAL_DIFF", "LD_PRELOAD", "GIT_CONFIG_COUNT=0\n"} {
		if strings.Contains(joined, bad) {
			t.Errorf("environment holds %q:%s", bad, joined)
		}
	}
	for _, want := range []string{"GIT_DIR=/mine", "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_KEY_0=core.fsmonitor", "=core.excludesFile\n"} {
		if !strings.Contains(joined, want) {
			t.Errorf("environment lacks %q:%s", want, joined)
		}
	}
}

// Sandboxed, git writes only where it was told it may.
func TestSandboxedGitWritesOnlyWhereAllowed(t *testing.T) {
	t.Parallel()
	if !Sandboxed() {
		t.Skip("no OS sandbox here: " + sandbox.Probe(sandbox.Policy{}).Reason)
	}
	base := t.TempDir()
	allowed, denied := filepath.Join(base, "allowed"), filepath.Join(base, "denied")
	os.MkdirAll(allowed, 0o755)
	os.MkdirAll(denied, 0o755)
	c := Cmd{Dir: base, Write: []string{allowed}}
	if _, err := c.Run(context.Background(), nil, "init", "-q", "--bare", filepath.Join(allowed, "r")); err != nil {
		t.Fatalf("init where writing is allowed: %v", err)
	}
	if _, err := c.Run(context.Background(), nil, "init", "-q", "--bare", filepath.Join(denied, "r")); err == nil {
		t.Fatal("git wrote outside the folders it may write")
	}
	if _, err := os.Stat(filepath.Join(denied, "r", "HEAD")); err == nil {
		t.Fatal("a repository appeared where git may not write")
	}
}
