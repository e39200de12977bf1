package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// rooted edit is a one-shot call: it may change a file it never read (there is no earlier call that could have),
// and --dry-run prints the diff the edit would make, which git apply then applies to the same effect.
func TestEditDryRun(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	root := t.TempDir()
	orig := "one\ntwo\nthree\ntwo\n"
	os.WriteFile(filepath.Join(root, "a.txt"), []byte(orig), 0o644)
	code, out, errOut := run(t, "", "edit", "--root", root, "--file", "a.txt", "--search", "two", "--replace", "2", "--replace-all", "--dry-run")
	if code != ExitOK || !strings.Contains(out, "-two\n+2\n") || !strings.Contains(errOut, "dry run: a.txt not changed") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(b) != orig {
		t.Fatalf("a dry run changed the file: %q", b)
	}
	code, wout, errOut := run(t, "", "edit", "--root", root, "--file", "a.txt", "--content", "new\n", "--dry-run")
	if code != ExitOK || !strings.HasPrefix(wout, "--- a/a.txt\n+++ b/a.txt\n") || !strings.Contains(wout, "+new\n") {
		t.Fatalf("write dry run: exit %d, stdout %q, stderr %q", code, wout, errOut)
	}
	if _, err := exec.LookPath("git"); err == nil {
		os.WriteFile(filepath.Join(root, "p.diff"), []byte(out), 0o644)
		cmd := exec.Command("git", "apply", "p.diff")
		cmd.Dir = root
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git apply: %v %s", err, b)
		}
		if b, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(b) != "one\n2\nthree\n2\n" {
			t.Errorf("the printed diff applies to %q", b)
		}
	}
}
