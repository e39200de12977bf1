package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// While a command runs, the user may make, in an editor or a terminal outside the sandbox, a protected file that
// was not there when the command started (.envrc, a .vscode folder), or (where nothing is bound) change one that
// was: the watcher cannot tell who did, and takes it away, since what a command planted there would run outside.
// What it held is not lost: a copy is kept outside the project, and the result says where.
func TestWhatTheWatcherTakesAwayIsKept(t *testing.T) {
	for _, mode := range guardModes(t) {
		t.Run(mode, func(t *testing.T) {
			fakeHome(t)
			t.Setenv("XDG_CACHE_HOME", t.TempDir())
			reg, root := registryWithJobs(t, mode, "main.go")
			os.MkdirAll(filepath.Join(root, ".vscode"), 0o755)
			os.WriteFile(filepath.Join(root, ".vscode", "settings.json"), []byte("{}\n"), 0o644)
			initAndCommit(t, root)
			// One edit a run: the first change the watcher takes back ends the command, and what the user changes
			// after that is left alone.
			edits := map[string]string{".envrc": "export A=1\n"}
			if mode == "subreaper" { // nothing is bound: a change to what was there is taken back too
				edits = map[string]string{".vscode/settings.json": `{"editor.tabSize": 2}` + "\n"}
			}
			started := filepath.Join(root, "started")
			go func() {
				for { // the command is running, its watcher too
					if _, err := os.Stat(started); err == nil {
						break
					}
					time.Sleep(20 * time.Millisecond)
				}
				for p, b := range edits { // as editors save: written elsewhere, then renamed over
					tmp := filepath.Join(root, "saving.tmp")
					os.WriteFile(tmp, []byte(b), 0o644)
					os.Rename(tmp, filepath.Join(root, p))
				}
			}()
			out, e := call[stoppedOut](t, reg, "exec_shell", `{"command": "python3", "args": ["-c", "import time; open('started', 'w').close(); time.sleep(6)"], "backup": false}`)
			if e != nil {
				t.Fatalf("exec_shell: %v", e)
			}
			for p, want := range edits {
				var kept string
				for _, line := range out.GitRestored {
					if rest, ok := strings.CutPrefix(line, "kept what "+p+" held at "); ok {
						kept, _, _ = strings.Cut(rest, " (")
					}
				}
				if kept == "" {
					t.Errorf("%s: no copy reported: %q", p, out.GitRestored)
					continue
				}
				if b, err := os.ReadFile(kept); err != nil || string(b) != want {
					t.Errorf("%s: the copy at %s holds %q (%v), want the user's %q", p, kept, b, err, want)
				}
				if rel, err := filepath.Rel(root, kept); err == nil && filepath.IsLocal(rel) {
					t.Errorf("%s: the copy is inside the project, where commands write: %s", p, kept)
				}
			}
		})
	}
}
