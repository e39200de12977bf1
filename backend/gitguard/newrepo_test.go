//go:build unix

package gitguard

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// The shape a repository made during a command may have, judged by repoFault: what git init, git clone, git
// submodule update and git worktree add make passes; each thing more fails, and names what it is.
func TestNewRepoShape(t *testing.T) {
	initRepo := func(t *testing.T, root string) { git(t, root, "init", "-q", "made") }
	cases := []struct {
		name  string
		setup func(t *testing.T, root string)
		entry string
		want  string // the git folder a declared submodule's .git must lead to
		fault string // "" when the shape passes
	}{
		{name: "git init", setup: initRepo, entry: "made/.git"},
		{name: "git clone", entry: "made/.git", setup: func(t *testing.T, root string) {
			git(t, root, "init", "-q", "src")
			write(t, filepath.Join(root, "src", "f"), "x\n", 0o644)
			git(t, filepath.Join(root, "src"), "add", "f")
			git(t, filepath.Join(root, "src"), "-c", "user.name=a", "-c", "user.email=a@b", "commit", "-qm", "f")
			git(t, root, "clone", "-q", "src", "made")
		}},
		{name: "nothing yet", entry: "made/.git", setup: func(t *testing.T, root string) {}},
		{name: "a .git file being written (empty)", entry: "made/.git", setup: func(t *testing.T, root string) {
			write(t, filepath.Join(root, "made", ".git"), "", 0o644)
		}},
		{name: "core.fsmonitor", entry: "made/.git", fault: "sets core.fsmonitor", setup: func(t *testing.T, root string) {
			initRepo(t, root)
			git(t, filepath.Join(root, "made"), "config", "core.fsmonitor", "echo x")
		}},
		{name: "an alias", entry: "made/.git", fault: "sets alias.st", setup: func(t *testing.T, root string) {
			initRepo(t, root)
			git(t, filepath.Join(root, "made"), "config", "alias.st", "!echo x")
		}},
		{name: "a hook", entry: "made/.git", fault: "made/.git/hooks/pre-commit", setup: func(t *testing.T, root string) {
			initRepo(t, root)
			write(t, filepath.Join(root, "made", ".git", "hooks", "pre-commit"), hook, 0o755)
		}},
		{name: "a sample hook", entry: "made/.git", setup: func(t *testing.T, root string) {
			initRepo(t, root)
			write(t, filepath.Join(root, "made", ".git", "hooks", "pre-commit.sample"), hook, 0o755)
		}},
		{name: "git init's link probe", entry: "made/.git", setup: func(t *testing.T, root string) {
			initRepo(t, root)
			os.Symlink("testing", filepath.Join(root, "made", ".git", "tAb3dE9"))
		}},
		{name: "a link as the configuration", entry: "made/.git", fault: "is a link", setup: func(t *testing.T, root string) {
			initRepo(t, root)
			write(t, filepath.Join(root, "evil"), "[core]\n\tfsmonitor = x\n", 0o644)
			os.Remove(filepath.Join(root, "made", ".git", "config"))
			os.Symlink("../../evil", filepath.Join(root, "made", ".git", "config"))
		}},
		{name: "a named pipe", entry: "made/.git", fault: "special file", setup: func(t *testing.T, root string) {
			initRepo(t, root)
			if err := syscall.Mkfifo(filepath.Join(root, "made", ".git", "packed-refs"), 0o644); err != nil {
				t.Skip(err)
			}
		}},
		{name: "a commondir to another repository", entry: "made/.git", fault: "points git at another repository", setup: func(t *testing.T, root string) {
			initRepo(t, root)
			git(t, root, "init", "-q", "other")
			write(t, filepath.Join(root, "made", ".git", "commondir"), "../../other/.git\n", 0o644)
		}},
		{name: "a .git link", entry: "made/.git", fault: "not a .git folder", setup: func(t *testing.T, root string) {
			git(t, root, "init", "-q", "other")
			os.MkdirAll(filepath.Join(root, "made"), 0o755)
			os.Symlink("../other/.git", filepath.Join(root, "made", ".git"))
		}},
		{name: "a .git file leading out of the project", entry: "made/.git", fault: "out of the project", setup: func(t *testing.T, root string) {
			write(t, filepath.Join(root, "made", ".git"), "gitdir: /tmp\n", 0o644)
		}},
		{name: "git worktree add", entry: "wt/.git", setup: func(t *testing.T, root string) {
			git(t, root, "init", "-q")
			git(t, root, "-c", "user.name=a", "-c", "user.email=a@b", "commit", "-q", "--allow-empty", "-m", "x")
			git(t, root, "worktree", "add", "-q", "wt")
		}},
		{name: "a declared submodule as git clones it", entry: "sub/.git", want: ".git/modules/sub", setup: submodule},
		{name: "a declared submodule's .git elsewhere", entry: "sub/.git", want: ".git/modules/sub", fault: "leads elsewhere", setup: func(t *testing.T, root string) {
			submodule(t, root)
			os.Rename(filepath.Join(root, ".git", "modules", "sub"), filepath.Join(root, "ev"))
			write(t, filepath.Join(root, "sub", ".git"), "gitdir: ../ev\n", 0o644)
		}},
		{name: "a declared submodule's work tree moved", entry: "sub/.git", want: ".git/modules/sub", fault: "sets core.worktree", setup: func(t *testing.T, root string) {
			submodule(t, root)
			git(t, filepath.Join(root, ".git", "modules", "sub"), "config", "core.worktree", "../../../other")
		}},
		{name: "a declared submodule as a folder", entry: "sub/.git", want: ".git/modules/sub", fault: "not a .git folder", setup: func(t *testing.T, root string) {
			git(t, root, "init", "-q", "sub")
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			c.setup(t, root)
			r, err := os.OpenRoot(root)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			got := New().repoFault(r, root, c.entry, c.want)
			if c.fault == "" && got != "" || c.fault != "" && !strings.Contains(got, c.fault) {
				t.Errorf("repoFault = %q, want %q", got, c.fault)
			}
		})
	}
}

// submodule makes, in root, a repository with a submodule sub cloned as git submodule update clones it.
func submodule(t *testing.T, root string) {
	t.Helper()
	src := filepath.Join(root, "upstream")
	git(t, root, "init", "-q", "upstream")
	write(t, filepath.Join(src, "s"), "s\n", 0o644)
	git(t, src, "add", "s")
	git(t, src, "-c", "user.name=a", "-c", "user.email=a@b", "commit", "-qm", "s")
	git(t, root, "init", "-q")
	git(t, root, "-c", "protocol.file.allow=always", "submodule", "add", "-q", "./upstream", "sub")
}

// A declared submodule is the gitlink in the index and the name .gitmodules gives its path, as they were before
// the command; a name git would refuse is no declaration.
func TestPendingSubmodules(t *testing.T) {
	root := t.TempDir()
	submodule(t, root)
	git(t, root, "-c", "user.name=a", "-c", "user.email=a@b", "commit", "-qm", "sub")
	git(t, root, "submodule", "deinit", "-q", "-f", "sub")
	os.RemoveAll(filepath.Join(root, ".git", "modules", "sub"))
	r, err := os.OpenRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	st := New().Scan(r, root)
	if got := st.PendingSubmodules(r); len(got) != 1 || got["sub/.git"] != ".git/modules/sub" {
		t.Errorf("PendingSubmodules = %v", got)
	}
	write(t, filepath.Join(root, ".gitmodules"), "[submodule \"../../x\"]\n\tpath = sub\n\turl = ./upstream\n", 0o644)
	if got := New().Scan(r, root).PendingSubmodules(r); len(got) != 0 {
		t.Errorf("a name with .. declares a submodule: %v", got)
	}
}
