package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A relative HOME (HOME=. in a script) names the folder Rooted started in: edits are backed up and diffed as with an
// absolute one, and the snapshots land in that folder's cache, not in one relative to wherever git runs.
func TestRelativeHome(t *testing.T) {
	start := t.TempDir()
	t.Chdir(start)
	os.Mkdir("home", 0o755)
	t.Setenv("HOME", "home")
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("XDG_CONFIG_HOME", "")
	if msg := AbsoluteHome(); !strings.Contains(msg, "relative") || os.Getenv("HOME") != filepath.Join(start, "home") {
		t.Fatalf("HOME %q after %q", os.Getenv("HOME"), msg)
	}
	root := filepath.Join(start, "proj")
	os.Mkdir(root, 0o755)
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("one\n"), 0o644)
	code, out, errOut := run(t, "", "edit", "--root", root, "--file", "a.txt", "--search", "one", "--replace", "two")
	if code != 0 {
		t.Fatalf("edit: %d %q %q", code, out, errOut)
	}
	id := strings.TrimSpace(out[strings.LastIndex(out, " ")+1:])
	if code, out, errOut := run(t, "", "diff", id, "--root", root); code != 0 || !strings.Contains(out, "+two") {
		t.Errorf("diff: %d %q %q", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(start, "home", ".cache", "rooted")); err != nil {
		t.Errorf("the snapshots are not in the home folder's cache: %v", err)
	}
	if AbsoluteHome() != "" {
		t.Error("an absolute HOME was changed")
	}
}
