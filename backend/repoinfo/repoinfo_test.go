package repoinfo

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/testtree"
)

// The branch, the status and the last commits, read by a git that runs nothing the repository names: an
// fsmonitor, a clean filter and a hook that would each leave a mark find it never ran.
func TestDescribe(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	mark := filepath.Join(t.TempDir(), "ran")
	testtree.Git(t, dir, "init", "-q", "-b", "feature/x")
	for i := range 7 {
		os.WriteFile(filepath.Join(dir, "f.txt"), fmt.Appendf(nil, "v%d\n", i), 0o644)
		testtree.Git(t, dir, "add", "f.txt")
		testtree.Git(t, dir, "commit", "-q", "-m", fmt.Sprintf("change %d", i))
	}
	script := filepath.Join(dir, "evil.sh")
	os.WriteFile(script, []byte("#!/bin/sh\ntouch "+mark+"\ncat\n"), 0o755)
	testtree.Git(t, dir, "config", "core.fsmonitor", script)
	testtree.Git(t, dir, "config", "filter.evil.clean", script)
	os.WriteFile(filepath.Join(dir, ".gitattributes"), []byte("*.txt filter=evil\n"), 0o644)
	os.WriteFile(filepath.Join(dir, ".git", "hooks", "post-checkout"), []byte("#!/bin/sh\ntouch "+mark+"\n"), 0o755)
	os.WriteFile(filepath.Join(dir, "f.txt"), []byte("changed\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "new.go"), []byte("package x\n"), 0o644)

	info := Describe(context.Background(), dir)
	if info.Branch != "feature/x" {
		t.Errorf("branch %q", info.Branch)
	}
	if len(info.Commits) != MaxCommits || !strings.HasSuffix(info.Commits[0], " change 6") || !strings.HasSuffix(info.Commits[4], " change 2") {
		t.Errorf("commits %q", info.Commits)
	}
	for _, want := range []string{" M f.txt", "?? new.go"} {
		if !slices.Contains(info.Status, want) {
			t.Errorf("status %q lacks %q", info.Status, want)
		}
	}
	if _, err := os.Stat(mark); err == nil {
		t.Fatal("describing the repository ran a program it names")
	}

	if got := Describe(context.Background(), t.TempDir()); got.Branch != "" || len(got.Commits) != 0 {
		t.Errorf("not a repository: %+v", got)
	}
	empty := t.TempDir()
	testtree.Git(t, empty, "init", "-q", "-b", "main")
	if got := Describe(context.Background(), empty); got.Branch != "main" {
		t.Errorf("no commits yet: %+v", got)
	}
}
