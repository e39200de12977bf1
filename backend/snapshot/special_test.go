//go:build unix

package snapshot

import (
	"context"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/gitexec"
)

// finishes runs f and fails the test if it has not returned after a generous time: a git blocked on a pipe fails the
// test instead of hanging it.
func finishes[T any](t *testing.T, what string, f func() (T, error)) (T, error) {
	t.Helper()
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := f()
		done <- result{v, err}
	}()
	select {
	case res := <-done:
		return res.v, res.err
	case <-time.After(2 * time.Minute):
		t.Fatalf("%s never returned", what)
	}
	panic("unreachable")
}

// A .gitignore or .gitattributes that is a named pipe (a sandboxed command can make one) makes git block opening
// it. Snapshots still complete: the first one, a write's backup (watched or not), a pipe made after the first
// snapshot and never reported, a diff and a restore; the pipes are recorded as nothing, and the files as they are.
func TestNamedPipesGitOpensNeverBlockASnapshot(t *testing.T) {
	for _, sandboxed := range []bool{false, true} {
		name, restore := "hardened", func() {}
		if sandboxed {
			if restore = gitexec.UseSandbox(); !gitexec.Sandboxed() {
				restore()
				continue
			}
			name = "sandboxed"
		}
		t.Run(name, func(t *testing.T) {
			defer restore()
			for _, track := range []bool{false, true} {
				p := newProject(t, map[string]string{"a.txt": "one\n", "sub/b.txt": "two\n", "sub/deep/c.txt": "three\n"})
				for _, rel := range []string{".gitignore", "sub/.gitignore", ".gitattributes", "sub/deep/.gitattributes"} {
					mkfifo(t, p.path(rel))
				}
				p.repo.Track(track)
				first, err := finishes(t, "first snapshot", func() (Snapshot, error) { return p.repo.Take(ctx, "first") })
				if err != nil {
					t.Fatalf("track=%v: first snapshot: %v", track, err)
				}
				// An edit's backup, then the edit.
				p.write("a.txt", "changed\n")
				p.repo.MarkDirty("a.txt")
				if _, err := finishes(t, "backup", func() (Snapshot, error) { return p.repo.TakeFor(ctx, "backup", []string{"a.txt"}) }); err != nil {
					t.Fatalf("track=%v: backup: %v", track, err)
				}
				// A pipe made after the first snapshot, in a new folder, which no walk has seen yet (and, without a
				// watcher, nothing reports): git still finishes.
				p.write("new/d.txt", "four\n")
				mkfifo(t, p.path("new/.gitignore"))
				p.repo.MarkDirty("new/d.txt")
				p.repo.MarkDirty("new/.gitignore")
				later, err := finishes(t, "later snapshot", func() (Snapshot, error) { return p.repo.Take(ctx, "later") })
				if err != nil {
					t.Fatalf("track=%v: later snapshot: %v", track, err)
				}
				d, err := finishes(t, "diff", func() (string, error) { return p.repo.Diff(ctx, first.ID, "") })
				if err != nil || !strings.Contains(d, "+changed") || !strings.Contains(d, "new/d.txt") {
					t.Fatalf("track=%v: diff: %v\n%s", track, err, d)
				}
				if _, err := finishes(t, "restore", func() (RestoreResult, error) { return p.repo.Restore(ctx, first.ID, nil) }); err != nil {
					t.Fatalf("track=%v: restore: %v", track, err)
				}
				if b, _ := os.ReadFile(p.path("a.txt")); string(b) != "one\n" {
					t.Errorf("track=%v: a.txt after restore: %q", track, b)
				}
				if _, err := os.Stat(p.path("new/d.txt")); !os.IsNotExist(err) {
					t.Errorf("track=%v: new/d.txt after restore: %v", track, err)
				}
				list, err := finishes(t, "list", func() ([]Snapshot, error) { return p.repo.List(ctx, 0) })
				if err != nil || len(list) < 3 {
					t.Errorf("track=%v: list: %d snapshots, %v", track, len(list), err)
				}
				_ = later
			}
		})
	}
}

// A pipe some process holds open without writing blocks git's read rather than its open: nothing Rooted does can
// end it, so git is ended at the deadline and the snapshot fails naming why, and a listing meanwhile answers with
// what exists rather than wait for it.
func TestGitBlockedOnAHeldPipeFailsAtTheDeadline(t *testing.T) {
	defer func(d, w time.Duration) { workTreeDeadline, listWait = d, w }(workTreeDeadline, listWait)
	workTreeDeadline, listWait = 3*time.Second, 100*time.Millisecond
	p := newProject(t, map[string]string{"a.txt": "one\n"})
	mkfifo(t, p.path(".gitattributes"))
	w, err := os.OpenFile(p.path(".gitattributes"), os.O_RDWR|syscall.O_NONBLOCK, 0) // a writer that never writes
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	taken := make(chan error, 1)
	go func() {
		_, err := p.repo.Take(context.Background(), "first")
		taken <- err
	}()
	for !p.repo.mu.Scanning() {
		time.Sleep(10 * time.Millisecond)
	}
	if _, err := finishes(t, "list during a blocked snapshot", func() ([]Snapshot, error) { return p.repo.List(ctx, 0) }); err != nil {
		t.Errorf("list during a blocked snapshot: %v", err)
	}
	select {
	case err := <-taken:
		if err == nil || !strings.Contains(err.Error(), "did not finish within") {
			t.Errorf("snapshot blocked on a held pipe: %v", err)
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("the snapshot never ended")
	}
}
