//go:build unix

package gitconfig

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The user's git configuration and the excludes file it names are read as every file Rooted reads for itself: a
// pipe, a link to /dev/zero or a file over 1 MiB there is skipped, and the sandbox's copy is written at once.
func TestSandboxGlobalSkipsSpecialFiles(t *testing.T) {
	t.Parallel()
	cases := map[string]func(home string){
		"~/.gitconfig is a fifo": func(home string) { syscall.Mkfifo(filepath.Join(home, ".gitconfig"), 0o644) },
		"~/.gitconfig is /dev/zero": func(home string) {
			os.Symlink("/dev/zero", filepath.Join(home, ".gitconfig"))
		},
		"excludesFile is /dev/zero": func(home string) {
			os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[core]\n\texcludesFile = /dev/zero\n"), 0o644)
		},
		"excludesFile is a fifo": func(home string) {
			syscall.Mkfifo(filepath.Join(home, "fifo"), 0o644)
			os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[core]\n\texcludesFile = ~/fifo\n"), 0o644)
		},
		"excludesFile is 2 MiB": func(home string) {
			os.WriteFile(filepath.Join(home, "big"), []byte(strings.Repeat("*.log\n", 2<<20/6+1)), 0o644)
			os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[core]\n\texcludesFile = ~/big\n"), 0o644)
		},
	}
	for name, setup := range cases {
		t.Run(name, func(t *testing.T) {
			home, dir := t.TempDir(), t.TempDir()
			setup(home)
			env := map[string]string{"HOME": home, "GIT_CONFIG_NOSYSTEM": "1"}
			done := make(chan error, 1)
			go func() {
				_, err := SandboxGlobal(dir, func(k string) string { return env[k] })
				done <- err
			}()
			select {
			case err := <-done:
				if err != nil {
					t.Fatal(err)
				}
			case <-time.After(30 * time.Second):
				t.Fatal("SandboxGlobal hangs on a special file")
			}
			if b, err := os.ReadFile(filepath.Join(dir, "git-excludesfile")); err == nil && len(b) > 1<<20 {
				t.Errorf("the copy of the excludes file holds %d bytes", len(b))
			}
		})
	}
}
