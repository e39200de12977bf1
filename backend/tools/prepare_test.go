package tools

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Whether a project's first snapshot waits is decided by the size git's index gives, read through the root: a
// large project's, not a small one's, nor a folder without git.
func TestTrackedFiles(t *testing.T) {
	dir := t.TempDir()
	open := func() *os.Root {
		r, err := os.OpenRoot(dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.Close() })
		return r
	}
	if n := trackedFiles(open()); n != 0 {
		t.Errorf("no git: %d", n)
	}
	for _, name := range []string{"a.txt", "b.txt", "sub/c.txt"} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		os.WriteFile(filepath.Join(dir, name), []byte(name), 0o644)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	if n := trackedFiles(open()); n != 3 {
		t.Errorf("three files added: %d", n)
	}
	// An index that is not one (a link out of the project is not followed either: os.Root refuses it).
	os.WriteFile(filepath.Join(dir, ".git", "index"), []byte("not an index at all"), 0o644)
	if n := trackedFiles(open()); n != 0 {
		t.Errorf("a bad index: %d", n)
	}
}
