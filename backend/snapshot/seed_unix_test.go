//go:build unix

package snapshot

import (
	"context"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/testtree"
)

// A project whose objects hold a named pipe, or that borrows objects itself, is not borrowed from: git reads the
// files of a repository it borrows from as it needs them, and a pipe among them (objects/info/alternates, a pack)
// would block every git of the shadow repository until its deadline.
func TestSeedingSkipsObjectsGitWouldBlockOn(t *testing.T) {
	t.Parallel()
	for name, rel := range map[string]string{
		"a pipe at objects/info/alternates": ".git/objects/info/alternates",
		"a pipe among the packs":            ".git/objects/pack/pack-0000.idx",
		"a pipe as a loose object":          ".git/objects/ab/cdef0123456789",
		"a borrowing project":               "",
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			p := newProject(t, map[string]string{"a.txt": "a\n"})
			testtree.Git(t, p.dir, "init", "-q")
			testtree.Git(t, p.dir, "add", "-A")
			if rel == "" {
				os.MkdirAll(p.path(".git/objects/info"), 0o755)
				p.write(".git/objects/info/alternates", p.dir+"/elsewhere/objects\n")
			} else {
				os.MkdirAll(p.path(rel+"/.."), 0o755)
				if err := syscall.Mkfifo(p.path(rel), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			done := make(chan Snapshot, 1)
			go func() {
				s, err := p.repo.Take(ctx, "first")
				if err != nil {
					t.Error(err)
				}
				done <- s
			}()
			select {
			case s := <-done:
				if p.repo.borrowing() {
					t.Error("borrowed from it")
				}
				if out, err := p.repo.git(context.Background(), nil, "show", s.ID+":a.txt"); err != nil || string(out) != "a\n" {
					t.Errorf("snapshot lacks a.txt: %v %q", err, out)
				}
			case <-time.After(2 * time.Minute):
				t.Fatal("the snapshot is blocked")
			}
		})
	}
}
