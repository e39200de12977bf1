//go:build unix

package ignore

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/smallfile"
	"github.com/rooted-dev/rooted/backend/testtree"
)

// Every ignore location may hold what a sandboxed command can make there: a named pipe, a link to a device that
// never ends, a file over the limit. None may hang the matcher or fill memory; the rules elsewhere still apply.
func TestSpecialFilesAtIgnoreLocations(t *testing.T) {
	t.Parallel()
	locations := []string{".gitignore", ".ignore", "sub/.gitignore", "sub/.ignore", ".git/info/exclude"}
	kinds := map[string]func(t *testing.T, p string){
		"fifo": func(t *testing.T, p string) {
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Fatal(err)
			}
		},
		"dev-zero": func(t *testing.T, p string) {
			if err := os.Symlink("/dev/zero", p); err != nil {
				t.Fatal(err)
			}
		},
		"2MiB": func(t *testing.T, p string) {
			// A valid ignore file, only too large: "kept.txt" in it must not be obeyed.
			b := []byte(strings.Repeat("# filler line of an oversized ignore file\n", (2<<20)/42) + "kept.txt\n")
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
		},
	}
	for _, loc := range locations {
		for kind, create := range kinds {
			t.Run(loc+"/"+kind, func(t *testing.T) {
				dir := testtree.Dir(t, map[string]string{
					"sub/deeper/.gitignore": "*.log\n",
					".git/info/":            "",
					"kept.txt":              "x",
				})
				create(t, filepath.Join(dir, filepath.FromSlash(loc)))
				root, err := os.OpenRoot(dir)
				if err != nil {
					t.Fatal(err)
				}
				defer root.Close()
				done := make(chan [3]bool, 1)
				go func() {
					m := newWith(root, nil)
					d := m.Dir("sub/deeper")
					if sub, err := root.OpenRoot("sub"); err == nil { // as the walkers read a folder's own files
						newWith(root, nil).DirWith("sub", smallfile.ReaderIn(sub)).Ignored("kept.txt", false)
						sub.Close()
					}
					done <- [3]bool{m.Ignored("sub/deeper/a.log", false), d.Ignored("a.log", false), m.Ignored("kept.txt", false)}
				}()
				select {
				case got := <-done:
					if !got[0] || !got[1] {
						t.Errorf("sub/deeper/.gitignore stopped applying: %v", got)
					}
					if got[2] {
						t.Errorf("kept.txt is ignored: a rule from the refused file was used")
					}
				case <-time.After(20 * time.Second):
					t.Fatal("the matcher hangs on a special file")
				}
			})
		}
	}
}

// The global excludes file and the git configuration that names it are read the same way.
func TestSpecialGlobalExcludes(t *testing.T) {
	cases := map[string]func(t *testing.T, home string){
		"excludesFile is /dev/zero": func(t *testing.T, home string) {
			os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[core]\n\texcludesFile = /dev/zero\n"), 0o644)
		},
		"excludesFile is a fifo": func(t *testing.T, home string) {
			syscall.Mkfifo(filepath.Join(home, "fifo"), 0o644)
			os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[core]\n\texcludesFile = ~/fifo\n"), 0o644)
		},
		"excludesFile is 2 MiB": func(t *testing.T, home string) {
			os.WriteFile(filepath.Join(home, "big"), []byte(strings.Repeat("*.log\n", (2<<20)/6+1)), 0o644)
			os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[core]\n\texcludesFile = ~/big\n"), 0o644)
		},
		"~/.gitconfig is a fifo": func(t *testing.T, home string) {
			syscall.Mkfifo(filepath.Join(home, ".gitconfig"), 0o644)
		},
		"~/.gitconfig is /dev/zero": func(t *testing.T, home string) {
			os.Symlink("/dev/zero", filepath.Join(home, ".gitconfig"))
		},
		"the XDG git config is 2 MiB": func(t *testing.T, home string) {
			os.WriteFile(filepath.Join(home, ".config", "git", "config"), []byte("[core]\n"+strings.Repeat("#\n", 1<<20)+"excludesFile=/x\n"), 0o644)
		},
		"the default ignore is a fifo": func(t *testing.T, home string) {
			syscall.Mkfifo(filepath.Join(home, ".config", "git", "ignore"), 0o644)
		},
	}
	for name, setup := range cases {
		t.Run(name, func(t *testing.T) {
			home := t.TempDir()
			os.MkdirAll(filepath.Join(home, ".config", "git"), 0o755)
			setup(t, home)
			t.Setenv("HOME", home)
			t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
			t.Setenv("GIT_CONFIG_GLOBAL", "") // restored when the test ends, unlike a bare Unsetenv
			os.Unsetenv("GIT_CONFIG_GLOBAL")
			done := make(chan rules, 1)
			go func() { done <- loadGlobal() }()
			select {
			case rs := <-done:
				if len(rs) != 0 {
					t.Errorf("%d rules from a file that should have been skipped", len(rs))
				}
			case <-time.After(20 * time.Second):
				t.Fatal("reading the global excludes hangs")
			}
		})
	}
}
