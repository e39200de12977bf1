package gitdir

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Is agrees with git itself on every shape: for each folder, git's own discovery (run in the folder, with the
// folder above it as the ceiling) takes it for a repository exactly when Is does.
func TestIsAgreesWithGit(t *testing.T) {
	const id = "0123456789abcdef0123456789abcdef01234567"
	file := func(p, s string) func(d string) { return func(d string) { write(t, filepath.Join(d, p), s, 0o644) } }
	dir := func(p string) func(d string) { return func(d string) { os.MkdirAll(filepath.Join(d, p), 0o755) } }
	link := func(target, p string) func(d string) {
		return func(d string) {
			os.MkdirAll(filepath.Dir(filepath.Join(d, p)), 0o755)
			os.Symlink(target, filepath.Join(d, p))
		}
	}
	elsewhere := t.TempDir() // a real object store and refs outside the folder, reached through links
	os.MkdirAll(filepath.Join(elsewhere, "objects"), 0o755)
	os.MkdirAll(filepath.Join(elsewhere, "refs"), 0o755)
	rows := []struct {
		name  string
		build []func(d string)
		is    bool
	}{
		{"HEAD, objects, refs", []func(string){file("HEAD", "ref: refs/heads/main\n"), dir("objects"), dir("refs")}, true},
		{"a detached HEAD", []func(string){file("HEAD", id+"\n"), dir("objects"), dir("refs")}, true},
		{"ref: with blanks", []func(string){file("HEAD", "ref:   refs/heads/x"), dir("objects"), dir("refs")}, true},
		{"HEAD a link into refs", []func(string){link("refs/heads/main", "HEAD"), dir("objects"), dir("refs")}, true},
		{"objects a link", []func(string){file("HEAD", "ref: refs/heads/main\n"), link(filepath.Join(elsewhere, "objects"), "objects"), dir("refs")}, true},
		{"refs a link", []func(string){file("HEAD", "ref: refs/heads/main\n"), dir("objects"), link(filepath.Join(elsewhere, "refs"), "refs")}, true},
		{"commondir to a folder with objects and refs", []func(string){file("HEAD", "ref: refs/heads/main\n"), file("commondir", elsewhere+"\n")}, true},
		{"relative commondir", []func(string){file("HEAD", "ref: refs/heads/main\n"), file("commondir", "c\n"), dir("c/objects"), dir("c/refs")}, true},
		{"no config needed", []func(string){file("HEAD", id), dir("objects"), dir("refs")}, true},
		{"HEAD naming no ref", []func(string){file("HEAD", "ref: heads/main\n"), dir("objects"), dir("refs")}, false},
		{"HEAD a link elsewhere", []func(string){link("../HEAD2", "HEAD"), dir("objects"), dir("refs")}, false},
		{"a short id", []func(string){file("HEAD", id[:30]), dir("objects"), dir("refs")}, false},
		{"no objects", []func(string){file("HEAD", "ref: refs/heads/main\n"), dir("refs")}, false},
		{"no refs", []func(string){file("HEAD", "ref: refs/heads/main\n"), dir("objects")}, false},
		{"objects a plain file", []func(string){file("HEAD", "ref: refs/heads/main\n"), file("objects", ""), dir("refs")}, false},
		{"a dangling objects link", []func(string){file("HEAD", "ref: refs/heads/main\n"), link("nowhere", "objects"), dir("refs")}, false},
		{"commondir to a folder without objects", []func(string){file("HEAD", "ref: refs/heads/main\n"), file("commondir", t.TempDir()), dir("objects"), dir("refs")}, false},
		{"HEAD a folder", []func(string){dir("HEAD"), dir("objects"), dir("refs")}, false},
		// git reads the first 255 bytes of HEAD whatever its size: a HEAD larger than the files Rooted reads whole
		// still makes a repository.
		{"a HEAD of 2 MiB", []func(string){file("HEAD", "ref: refs/heads/main\n"+strings.Repeat("x", 2<<20)), dir("objects"), dir("refs")}, true},
		{"a detached HEAD of 2 MiB", []func(string){file("HEAD", id+strings.Repeat("y", 2<<20)), dir("objects"), dir("refs")}, true},
		{"empty", nil, false},
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			parent := t.TempDir()
			d := filepath.Join(parent, "repo")
			os.MkdirAll(d, 0o755)
			for _, b := range row.build {
				b(d)
			}
			if got := Is(d); got != row.is {
				t.Errorf("Is = %v, want %v", got, row.is)
			}
			cmd := exec.Command("git", "rev-parse", "--absolute-git-dir")
			cmd.Dir = d
			cmd.Env = append(gitFreeEnv(), "GIT_CEILING_DIRECTORIES="+parent, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
			var stderr strings.Builder
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			real, _ := filepath.EvalSymlinks(d)
			byGit := err == nil && strings.TrimSpace(string(out)) == real
			if byGit != row.is {
				t.Errorf("git says %v (%s, %v %s), the table %v", byGit, out, err, stderr.String(), row.is)
			}
		})
	}
}

// A commondir counts as git's own only in a linked worktree's folder that its common folder lists: one that git
// worktree add made. A commondir planted in a repository's .git leads git to another repository's settings.
func TestCommonTellsAWorktreeFromAPlantedPointer(t *testing.T) {
	root := t.TempDir()
	git := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	git("init", "-q", "-b", "main")
	git("-c", "user.name=u", "-c", "user.email=u@x", "commit", "-q", "--allow-empty", "-m", "x")
	git("worktree", "add", "-q", "wt")
	main := filepath.Join(root, ".git")
	if c, made := Common(filepath.Join(main, "worktrees", "wt")); !made || c != main {
		t.Errorf("the worktree's folder: %s %v", c, made)
	}
	if c, made := Common(main); !made || c != main {
		t.Errorf("the repository's own folder: %s %v", c, made)
	}
	// A nested repository, and the project's .git pointed at it.
	git("init", "-q", "nested")
	write(t, filepath.Join(main, "commondir"), "../nested/.git\n", 0o644)
	if c, made := Common(main); made || c != filepath.Join(root, "nested", ".git") {
		t.Errorf("a planted commondir: %s %v", c, made)
	}
	if !Is(main) {
		t.Error("git still takes the folder for a repository (through the nested one's objects)")
	}
	// A copy of the worktree's folder elsewhere: its commondir names a common folder that does not list it.
	cp := filepath.Join(root, "copy")
	os.MkdirAll(cp, 0o755)
	for _, n := range []string{"HEAD", "commondir", "gitdir"} {
		b, _ := os.ReadFile(filepath.Join(main, "worktrees", "wt", n))
		write(t, filepath.Join(cp, n), string(b), 0o644)
	}
	write(t, filepath.Join(cp, "commondir"), main+"\n", 0o644)
	if _, made := Common(cp); made {
		t.Error("a copy of a worktree's folder was taken for git's own")
	}
}

func write(t *testing.T, p, s string, mode os.FileMode) {
	t.Helper()
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(s), mode); err != nil {
		t.Fatal(err)
	}
}

// gitFreeEnv is this process's environment without git's own variables.
func gitFreeEnv() []string {
	var out []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			out = append(out, kv)
		}
	}
	return out
}
