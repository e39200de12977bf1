package tools

import (
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// A repository where a gitlink leads that was not declared before the command (the command added the gitlink) is
// entered by the user's git status at once: its making ends the command, whatever order the watcher learns of the
// gitlink and of the repository in. Here the watcher's events are cut off before the command's changes, and it is
// handed the one it would see first (the new folder), or told events were lost (the kernel's queue overflowed
// while the machine was busy): a gitlink it has not read yet must not leave the repository to the shape rule,
// which lets a new repository run until its configuration turns bad. A repository no gitlink leads to is still
// judged by its shape and left to run.
func TestGitlinkRepositoryEndsTheCommandInAnyOrder(t *testing.T) {
	cases := []struct {
		name    string
		gitlink bool
		// seen is what the watcher is told after the changes: the new folder's event, or that events were lost.
		seen  func(w *watcher, root string)
		ended bool
	}{
		{name: "the folder's event before the index's", gitlink: true, ended: true, seen: func(w *watcher, root string) {
			w.newEntry(filepath.Join(root, "sub"), 0)
		}},
		{name: "events lost", gitlink: true, ended: true, seen: func(w *watcher, _ string) { w.overflowed() }},
		{name: "no gitlink: judged by its shape", seen: func(w *watcher, root string) {
			w.newEntry(filepath.Join(root, "sub"), 0)
		}},
		{name: "no gitlink, events lost", seen: func(w *watcher, _ string) { w.overflowed() }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fakeHome(t)
			_, root := makeLayout(t, []string{"main.go"})
			initAndCommit(t, root)
			r, st, pr := protectIn(t, root, "/usr/bin", "make")
			var stops atomic.Int32
			w := watchProtected(r, root, pr.watched(root, nil), pr.watched(root, nil), st, func() { stops.Add(1) }, pr.createdRule(st))
			if w.w == nil {
				t.Fatal("no inotify here: the watcher's order cannot be tested")
			}
			w.w.Close() // from here on the kernel tells the watcher nothing: the case hands it what it sees
			if c.gitlink {
				mustGit(t, root, "update-index", "--add", "--cacheinfo", "160000,1111111111111111111111111111111111111111,sub")
			}
			mustGit(t, root, "init", "-q", "sub")
			c.seen(w, root)
			restored, stopped := w.close(false)
			_, err := os.Lstat(filepath.Join(root, "sub", ".git"))
			if !c.ended {
				if stops.Load() != 0 || stopped != "" || len(restored) > 0 || err != nil {
					t.Fatalf("a new repository no gitlink leads to, as git init made it, was ended or taken: stops %d, %q, %q, %v", stops.Load(), stopped, restored, err)
				}
				return
			}
			if stops.Load() == 0 || stopped != "sub/.git" {
				t.Errorf("the command was not ended for the repository a new gitlink leads to: stops %d, stopped for %q", stops.Load(), stopped)
			}
			if err == nil {
				t.Errorf("sub/.git, where the new gitlink leads, is still there: %q", restored)
			}
			if !strings.Contains(strings.Join(restored, "\n"), "removed sub/.git") {
				t.Errorf("the result does not say sub/.git was removed: %q", restored)
			}
		})
	}
}
