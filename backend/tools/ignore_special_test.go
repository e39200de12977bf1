//go:build unix

package tools

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/session"
)

// A named pipe, a link to /dev/zero and a 2 MiB file at each ignore location of a project (a sandboxed command
// can make any of them): every tool still answers, in a live session with its watcher, index and first snapshot,
// and the files are skipped rather than read. A tool that hangs fails the test by its deadline. git, run by the
// snapshots, opens a per-folder .gitignore itself: a pipe there must not keep a backup or the first snapshot from
// ending (the snapshot package keeps such pipes from blocking it).
func TestSpecialFilesAtIgnoreLocationsNeverHangATool(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	kinds := map[string]func(p string) error{
		"fifo":     func(p string) error { return syscall.Mkfifo(p, 0o644) },
		"dev-zero": func(p string) error { return os.Symlink("/dev/zero", p) },
		"2MiB": func(p string) error {
			return os.WriteFile(p, []byte(strings.Repeat("# padding of an oversized ignore file\n", (2<<20)/38+1)+"*.txt\n"), 0o644)
		},
	}
	for _, loc := range []string{".gitignore", ".ignore", "sub/.gitignore", ".git/info/exclude"} {
		for kind, create := range kinds {
			t.Run(loc+"/"+kind, func(t *testing.T) {
				t.Parallel() // the environment set above stays until every case ends
				dir := t.TempDir()
				if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
					t.Fatalf("git init: %v %s", err, out)
				}
				os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
				os.MkdirAll(filepath.Join(dir, ".git", "info"), 0o755)
				os.Remove(filepath.Join(dir, ".git", "info", "exclude"))
				os.WriteFile(filepath.Join(dir, "a.txt"), []byte("needle\n"), 0o644)
				os.WriteFile(filepath.Join(dir, "sub", "b.txt"), []byte("needle\n"), 0o644)
				if err := create(filepath.Join(dir, filepath.FromSlash(loc))); err != nil {
					t.Fatal(err)
				}
				s := session.New()
				defer s.Close()
				d := UserDeps(s, true)
				defer d.Indexes.Close()
				if d.Snapshots != nil {
					defer d.Snapshots.Close()
				}
				if d.Jobs != nil {
					defer d.Jobs.Close()
				}
				info, err := s.SetRoot(dir)
				if err != nil {
					t.Fatal(err)
				}
				d.Prepare(info, nil)
				reg := Registry(d)
				calls := []struct{ name, args, want string }{
					{"list_directory", `{"path": "."}`, `"a.txt"`},
					{"list_directory", `{"path": "sub"}`, `"b.txt"`},
					{"search_files", `{"query": "needle"}`, `sub/b.txt`},
					{"find_files", `{"glob": "*.txt"}`, `a.txt`},
					{"read_file", `{"path": "a.txt"}`, `needle`},
					{"write_file", `{"path": "a.txt", "content": "changed\n"}`, `"a.txt"`},
					{"exec_shell", `{"command": "ls sub", "backup": false}`, `b.txt`},
					// With a backup: a full snapshot, whose git opens every per-folder .gitignore.
					{"exec_shell", `{"command": "ls sub"}`, `b.txt`},
					{"list_snapshots", `{}`, `"snapshots"`},
				}
				for _, c := range calls {
					ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
					done := make(chan string, 1)
					go func() {
						out, e := reg.Call(ctx, c.name, []byte(c.args))
						if e != nil {
							done <- fmt.Sprintf("error %s: %s", e.Code, e.Message)
							return
						}
						done <- string(out)
					}()
					select {
					case got := <-done:
						if !strings.Contains(got, c.want) {
							t.Errorf("%s %s: %.300s", c.name, c.args, got)
						}
					case <-time.After(90 * time.Second):
						t.Fatalf("%s %s never answered", c.name, c.args)
					}
					cancel()
				}
			})
		}
	}
}
