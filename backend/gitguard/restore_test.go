//go:build unix

package gitguard

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// git runs real git in dir, away from the user's and the system's configuration.
func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// openRoot opens abs as a root, closed when the test ends.
func openRoot(t *testing.T, abs string) *os.Root {
	t.Helper()
	root, err := os.OpenRoot(abs)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	return root
}

// newRepo makes an empty git repository in a folder of the test's and opens it as a root.
func newRepo(t *testing.T) (abs string, root *os.Root) {
	t.Helper()
	abs = t.TempDir()
	git(t, abs, "init", "-q")
	return abs, openRoot(t, abs)
}

func write(t *testing.T, p, content string, perm os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), perm); err != nil {
		t.Fatal(err)
	}
}

func read(p string) string {
	b, err := os.ReadFile(p)
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return string(b)
}

const hook = "#!/bin/sh\nexit 0\n"

// Each step of restore, one row each: what a command did to a repository, what the report says, and what is on
// disk after. A row with said "" is a change that must stay, unreported; a row with not names what the report
// must not claim (a put-back that failed is reported as failed, never as done).
func TestRestoreSteps(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		do   func(t *testing.T, abs string)
		said string
		not  string
		then func(abs string) error
	}{
		{
			name: "a .git folder moved away is moved back",
			do:   func(t *testing.T, abs string) { os.Rename(filepath.Join(abs, ".git"), filepath.Join(abs, ".gitx")) },
			said: "put back .git, which the command moved to .gitx",
			then: func(abs string) error { return exists(filepath.Join(abs, ".git", "hooks", "pre-push")) },
		},
		{
			name: "a .git folder replaced by a file leading out is removed",
			do: func(t *testing.T, abs string) {
				os.RemoveAll(filepath.Join(abs, ".git"))
				write(t, filepath.Join(abs, ".git"), "gitdir: /elsewhere\n", 0o644)
			},
			said: "removed .git, which the command put in place of the repository's folder",
			then: func(abs string) error { return absent(filepath.Join(abs, ".git")) },
		},
		{
			name: "a new .git file leading out of the project is removed",
			do: func(t *testing.T, abs string) {
				write(t, filepath.Join(abs, "sub", ".git"), "gitdir: /elsewhere\n", 0o644)
			},
			said: "removed sub/.git: it leads git to a repository outside the project",
			then: func(abs string) error { return absent(filepath.Join(abs, "sub", ".git")) },
		},
		{
			name: "a named pipe left in a git folder is removed",
			do: func(t *testing.T, abs string) {
				if err := syscall.Mkfifo(filepath.Join(abs, ".git", "FETCH_HEAD"), 0o644); err != nil {
					t.Fatal(err)
				}
			},
			said: "removed .git/FETCH_HEAD, a named pipe",
			then: func(abs string) error { return absent(filepath.Join(abs, ".git", "FETCH_HEAD")) },
		},
		{
			name: "a link put in a git folder is removed",
			do:   func(t *testing.T, abs string) { os.Symlink("/etc/passwd", filepath.Join(abs, ".git", "info", "x")) },
			said: "removed .git/info/x, a link the command put in a git folder",
			then: func(abs string) error { return absent(filepath.Join(abs, ".git", "info", "x")) },
		},
		{
			name: "a commondir pointing git elsewhere is removed",
			do: func(t *testing.T, abs string) {
				write(t, filepath.Join(abs, ".git", "commondir"), "../elsewhere\n", 0o644)
			},
			said: "removed .git/commondir, which pointed git at another repository",
			then: func(abs string) error { return absent(filepath.Join(abs, ".git", "commondir")) },
		},
		{
			name: "a program-running setting is undone with the whole file",
			do: func(t *testing.T, abs string) {
				f, _ := os.OpenFile(filepath.Join(abs, ".git", "config"), os.O_APPEND|os.O_WRONLY, 0)
				f.WriteString("[core]\n\tfsmonitor = touch pwned\n")
				f.Close()
			},
			said: "restored .git/config: the command set core.fsmonitor",
			then: func(abs string) error { return lacks(filepath.Join(abs, ".git", "config"), "fsmonitor") },
		},
		{
			name: "a setting that runs nothing stays",
			do:   func(t *testing.T, abs string) { git(t, abs, "config", "user.name", "Someone Else") },
			then: func(abs string) error { return holds(filepath.Join(abs, ".git", "config"), "Someone Else") },
		},
		{
			name: "a repository the command created keeps only what a new one may",
			do: func(t *testing.T, abs string) {
				git(t, abs, "init", "-q", "nested")
				git(t, filepath.Join(abs, "nested"), "config", "core.fsmonitor", "touch pwned")
			},
			said: "removed core.fsmonitor from nested/.git/config, which the command created",
			then: func(abs string) error { return lacks(filepath.Join(abs, "nested", ".git", "config"), "fsmonitor") },
		},
		{
			name: "an exec line in a stopped rebase's todo list is dropped",
			do: func(t *testing.T, abs string) {
				write(t, filepath.Join(abs, ".git", "rebase-merge", "git-rebase-todo"), "pick 1234 x\nexec touch pwned\n", 0o644)
			},
			said: "removed 1 exec line(s) from .git/rebase-merge/git-rebase-todo",
			then: func(abs string) error {
				return lacks(filepath.Join(abs, ".git", "rebase-merge", "git-rebase-todo"), "exec")
			},
		},
		{
			name: "a hook the command added is removed",
			do: func(t *testing.T, abs string) {
				write(t, filepath.Join(abs, ".git", "hooks", "pre-commit"), hook, 0o755)
			},
			said: "removed .git/hooks/pre-commit, a hook the command added",
			then: func(abs string) error { return absent(filepath.Join(abs, ".git", "hooks", "pre-commit")) },
		},
		{
			name: "a hook the command changed is restored",
			do: func(t *testing.T, abs string) {
				write(t, filepath.Join(abs, ".git", "hooks", "pre-push"), "#!/bin/sh\ntouch pwned\n", 0o755)
			},
			said: "restored .git/hooks/pre-push, a hook the command changed",
			then: func(abs string) error { return holds(filepath.Join(abs, ".git", "hooks", "pre-push"), hook) },
		},
		{
			name: "a hook that cannot be written back is reported as not put back",
			do: func(t *testing.T, abs string) {
				os.RemoveAll(filepath.Join(abs, ".git", "hooks"))
				os.Symlink(t.TempDir(), filepath.Join(abs, ".git", "hooks"))
			},
			said: "could not put back .git/hooks/pre-push",
			not:  "restored .git/hooks/pre-push",
			then: func(abs string) error { return absent(filepath.Join(abs, ".git", "hooks")) },
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			abs := t.TempDir()
			git(t, abs, "init", "-q")
			write(t, filepath.Join(abs, ".git", "hooks", "pre-push"), hook, 0o755)
			root := openRoot(t, abs)
			before := New().Scan(root, abs)
			c.do(t, abs)
			said, _ := before.restore(root, abs)
			joined := strings.Join(said, "\n")
			switch {
			case c.said == "" && len(said) > 0:
				t.Errorf("reported %q for a change that stays", said)
			case c.said != "" && !strings.Contains(joined, c.said):
				t.Errorf("reported %q, want %q", said, c.said)
			case c.not != "" && strings.Contains(joined, c.not):
				t.Errorf("reported %q, which claims %q", said, c.not)
			}
			if err := c.then(abs); err != nil {
				t.Error(err)
			}
		})
	}
}

// A command that changed nothing gets no report, and nothing is written.
func TestRestoreNothingChanged(t *testing.T) {
	t.Parallel()
	abs, root := newRepo(t)
	fi, _ := os.Stat(filepath.Join(abs, ".git", "config"))
	if said, _ := New().Scan(root, abs).restore(root, abs); len(said) != 0 {
		t.Errorf("reported %q", said)
	}
	if now, _ := os.Stat(filepath.Join(abs, ".git", "config")); !now.ModTime().Equal(fi.ModTime()) {
		t.Error("the configuration was written though nothing changed")
	}
}

// Git's readings of configuration files are each Guard's own, and bounded: a guard holds no more than its limit
// however many contents it has read, and a second guard starts with none of the first one's.
func TestConfigCacheIsBoundedAndOwned(t *testing.T) {
	t.Parallel()
	g := New()
	g.lists.max = 3
	for i := range 10 {
		if _, err := g.lists.list(fmt.Appendf(nil, "[user]\n\tname = n%d\n", i)); err != nil {
			t.Fatal(err)
		}
		if n := g.lists.size(); n > 3 {
			t.Fatalf("the guard holds %d readings, over its limit of 3", n)
		}
	}
	keys, err := g.lists.list([]byte("[user]\n\tname = n9\n"))
	if err != nil || len(keys["user.name"]) != 1 || keys["user.name"][0] != "n9" {
		t.Errorf("a remembered reading: %v, %v", keys, err)
	}
	if n := New().lists.size(); n != 0 {
		t.Errorf("a new guard starts with %d readings", n)
	}
}

func exists(p string) error {
	if _, err := os.Lstat(p); err != nil {
		return fmt.Errorf("%s is not there: %v", p, err)
	}
	return nil
}

func absent(p string) error {
	if _, err := os.Lstat(p); err == nil {
		return fmt.Errorf("%s is still there", p)
	}
	return nil
}

func holds(p, s string) error {
	if b := read(p); !strings.Contains(b, s) {
		return fmt.Errorf("%s holds %q, want %q in it", p, b, s)
	}
	return nil
}

func lacks(p, s string) error {
	if b := read(p); strings.Contains(b, s) || strings.HasPrefix(b, "<") {
		return fmt.Errorf("%s holds %q, want it without %q", p, b, s)
	}
	return nil
}
