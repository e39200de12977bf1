//go:build unix

package gitdir

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// oddNames are the folder names the byte variants below may lead to: each is made a repository, so whichever one
// git settles on exists, and Rooted must name the same one.
var oddNames = []string{"t", "t ", "t\t", "t \t", " t", "t\v", "t\f", "t\nx", "t\n"}

func bareAt(t *testing.T, d string) {
	t.Helper()
	for _, p := range []string{"objects", "refs/heads"} {
		if err := os.MkdirAll(filepath.Join(d, p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(d, "HEAD"), "ref: refs/heads/main\n", 0o644)
}

// gitSays runs git hardened in dir and returns what rev-parse prints for the one question asked (a path may hold a
// newline), and false when git takes nothing there.
func gitSays(t *testing.T, dir, ceiling string, arg string) (string, bool) {
	t.Helper()
	cmd := exec.Command("git", "rev-parse", arg)
	cmd.Dir = dir
	cmd.Env = append(gitFreeEnv(), "GIT_CEILING_DIRECTORIES="+ceiling, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	out, err := cmd.Output()
	if err != nil {
		return "", false
	}
	return strings.TrimSuffix(string(out), "\n"), true
}

// A .git file is read exactly as git reads it: for every byte variant, the folder git resolves it to (asked of
// git itself) is the one ParseGitFile names, and where git takes it for nothing, so does Rooted (or the folder it
// names is no repository). The trailing space of "gitdir: ../t " is part of the name to git.
func TestGitFileParsedAsGitDoes(t *testing.T) {
	variants := []string{
		"gitdir: ../t\n", "gitdir: ../t", "gitdir: ../t\r\n", "gitdir: ../t \n", "gitdir: ../t ", "gitdir: ../t\t\n",
		"gitdir: ../t \t\n", "gitdir:  ../t\n", "gitdir: ../t\n\n\n", "gitdir: ../t\r\r\n", "gitdir: ../t\x00junk\n",
		"gitdir: ../t\nx\n", "gitdir: ../t\v\n", "gitdir: ../t\f", "gitdir:../t\n", "GITDIR: ../t\n", " gitdir: ../t\n",
		"gitdir: \n", "gitdir: ../t\n\n",
	}
	for _, v := range variants {
		t.Run(strings.ReplaceAll(v, "/", "_"), func(t *testing.T) {
			parent := t.TempDir()
			for _, n := range oddNames {
				bareAt(t, filepath.Join(parent, n))
			}
			w := filepath.Join(parent, "w")
			write(t, filepath.Join(w, ".git"), v, 0o644)
			byGit, found := gitSays(t, w, parent, "--absolute-git-dir")
			target, ok := ParseGitFile([]byte(v))
			var ours string
			if ok {
				ours = filepath.Join(w, target)
				if !Is(ours) {
					ours = ""
				}
			}
			switch {
			case !found && ours != "":
				t.Errorf("git takes %q for no repository, Rooted for %q", v, ours)
			case found && byGit != ours:
				t.Errorf("git resolves %q to %q, Rooted to %q", v, byGit, ours)
			}
		})
	}
}

// A commondir is read exactly as git reads it: the common folder git reports for every byte variant is the one
// Common names.
func TestCommonDirParsedAsGitDoes(t *testing.T) {
	variants := []string{
		"../t\n", "../t", "../t\r\n", "../t \n", "../t ", "../t\t\n", "../t \t", " ../t\n", "../t\n\n", "../t\x00x",
		"../t\nx\n", "../t\v", "../t\f\n",
	}
	for _, v := range variants {
		t.Run(strings.ReplaceAll(v, "/", "_"), func(t *testing.T) {
			parent := t.TempDir()
			for _, n := range oddNames {
				bareAt(t, filepath.Join(parent, n))
			}
			g := filepath.Join(parent, "g")
			write(t, filepath.Join(g, "HEAD"), "ref: refs/heads/main\n", 0o644)
			write(t, filepath.Join(g, "commondir"), v, 0o644)
			byGit, found := gitSays(t, g, parent, "--git-common-dir")
			common, _ := Common(g)
			switch {
			case !found && Is(g):
				t.Errorf("git takes %q for no repository, Rooted for one with common folder %q", v, common)
			case found && filepath.Clean(filepath.Join(g, byGit)) != common && byGit != common:
				t.Errorf("git's common folder for %q is %q, Rooted's %q", v, byGit, common)
			}
		})
	}
}

// A named pipe where git's pointer files are (HEAD, commondir) is refused at once, not waited on: asking about a
// folder a command left must never hang whoever asks.
func TestNamedPipesNeverBlockIs(t *testing.T) {
	for _, name := range []string{"HEAD", "commondir"} {
		t.Run(name, func(t *testing.T) {
			d := t.TempDir()
			bareAt(t, d)
			os.Remove(filepath.Join(d, name))
			if err := syscall.Mkfifo(filepath.Join(d, name), 0o644); err != nil {
				t.Fatal(err)
			}
			done := make(chan bool)
			go func() { Is(d); Common(d); done <- true }()
			select {
			case <-done:
			case <-time.After(time.Minute):
				t.Fatalf("Is blocked on a named pipe at %s", name)
			}
		})
	}
}
