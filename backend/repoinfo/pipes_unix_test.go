//go:build unix

package repoinfo

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
)

// A command can leave a .gitignore or .gitattributes that is a named pipe, which git blocks opening. The status
// still comes back whole, not empty after the timeout: the pipes are opened for git while it runs (found by a walk
// the first time, known from then on), and they read as empty files.
func TestNamedPipesDoNotBlockTheStatus(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", "-b", "main")
	os.MkdirAll(filepath.Join(dir, "sub", "deep"), 0o755)
	os.WriteFile(filepath.Join(dir, "sub", "deep", "a.txt"), []byte("one\n"), 0o644)
	git("add", ".")
	git("commit", "-q", "-m", "first")
	for _, rel := range []string{".gitignore", "sub/.gitignore", "sub/deep/.gitattributes"} {
		if err := syscall.Mkfifo(filepath.Join(dir, rel), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(dir, "sub", "deep", "a.txt"), []byte("two\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "sub", "new.txt"), []byte("new\n"), 0o644)

	for round := range 2 {
		info := Describe(context.Background(), dir)
		for _, want := range []string{" M sub/deep/a.txt", "?? sub/new.txt"} {
			if !slices.Contains(info.Status, want) {
				t.Errorf("round %d: status %q lacks %q", round, info.Status, want)
			}
		}
	}
}
