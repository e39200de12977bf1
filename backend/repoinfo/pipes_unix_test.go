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

	"github.com/rooted-dev/rooted/backend/testtree"
)

// A command can leave a .gitignore or .gitattributes that is a named pipe, which git blocks opening. The status
// still comes back whole, not empty after the timeout: the pipes are opened for git while it runs (found by a walk
// the first time, known from then on), and they read as empty files.
func TestNamedPipesDoNotBlockTheStatus(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := testtree.Repo(t, map[string]string{"sub/deep/a.txt": "one\n"})
	for _, rel := range []string{".gitignore", "sub/.gitignore", "sub/deep/.gitattributes"} {
		if err := syscall.Mkfifo(filepath.Join(dir, rel), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(dir, "sub", "deep", "a.txt"), []byte("two\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "sub", "new.txt"), []byte("new\n"), 0o644)

	repo := New(dir)
	for round := range 2 {
		info := repo.Describe(context.Background())
		for _, want := range []string{" M sub/deep/a.txt", "?? sub/new.txt"} {
			if !slices.Contains(info.Status, want) {
				t.Errorf("round %d: status %q lacks %q", round, info.Status, want)
			}
		}
		// The first status found the pipes by a walk; the second knew them from its start.
		if known := repo.knownPipes(); len(known) == 0 {
			t.Errorf("round %d: the pipes git blocked on were not remembered", round)
		}
	}
	// What one describer learnt is its own: a one-shot description, or another workspace's describer, starts
	// from nothing and still comes back whole.
	other := New(dir)
	if known := other.knownPipes(); len(known) != 0 {
		t.Errorf("a new describer knows pipes %v", known)
	}
	if info := Describe(context.Background(), dir); !slices.Contains(info.Status, "?? sub/new.txt") {
		t.Errorf("one-shot status %q lacks the new file", info.Status)
	}
}

// Named pipes in the repository's own git folder, which git opens by name (info/exclude for a status,
// objects/info/alternates for any object), do not block the status either.
func TestNamedPipesInTheGitFolderDoNotBlockTheStatus(t *testing.T) {
	t.Parallel()
	dir := testtree.Repo(t, map[string]string{"a.txt": "one\n"})
	os.MkdirAll(filepath.Join(dir, ".git", "info"), 0o755)
	os.MkdirAll(filepath.Join(dir, ".git", "objects", "info"), 0o755)
	for _, rel := range []string{".git/info/exclude", ".git/objects/info/alternates"} {
		os.Remove(filepath.Join(dir, rel))
		if err := syscall.Mkfifo(filepath.Join(dir, filepath.FromSlash(rel)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("two\n"), 0o644)
	if info := Describe(context.Background(), dir); !slices.Contains(info.Status, " M a.txt") {
		t.Errorf("status %q lacks the change", info.Status)
	}
}
