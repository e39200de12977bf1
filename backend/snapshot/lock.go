package snapshot

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Locking, all of it, in the order a caller takes it:
//
//  1. r.mu (an opLock, oplock.go), in this process: one full operation at a time (a full or derived snapshot, a
//     diff, a restore, a retention run, starting the copy of borrowed objects), and the Repo state they share.
//     Its holder says when it is scanning the tree: an edit then records a partial snapshot instead of waiting,
//     and a listing waits only listWait. Callers someone waits for take it with LockWaited, which makes background
//     work holding it stop yielding to searches (yield.go).
//  2. The repository lock, across processes: an flock on rooted.lock in the shadow repository, held exclusively
//     by whichever Rooted process (the window, rooted mcp, a CLI call) runs a git that writes the shadow
//     repository's index or packs: a full scan, a diff's scan, retention, the copy of borrowed objects. It is
//     taken after r.mu, and each git started meanwhile inherits its descriptor: the kernel releases an flock when
//     the last descriptor of it closes, so the lock is held until both the Rooted process and every git it
//     started have ended, however they end. Whoever holds it therefore knows that no git is writing the shadow
//     repository, so a git lock file there (index.lock, a ref's .lock, ...) is the leftover of a killed git, and
//     is removed (clearStale). Derived snapshots do not take it: they write only objects and a ref.
//  3. r.partial: partial snapshots (partial.go), which run beside a full operation of this process or another.
//     They add objects and a new ref, each through a temporary file renamed into place, and take no git lock,
//     so they need neither lock above; r.partial orders them among themselves and guards r.rehash and r.opened.
//  4. For a moment each, by anyone, and never two at once: r.dirtyMu, the watcher's marks (snapshot.go); and
//     r.blockMu, the named pipes a git would block on (special.go), which a git that reads the work tree consults
//     while it runs under r.mu or r.partial.
//
// Nothing on disk depends on a process finishing: the objects, refs, index, exclude file and configuration are
// each replaced whole (by git's lock-and-rename or by writeWhole), and the log is appended a line at a time.

// errBusy says another operation holds the repository lock.
var errBusy = errors.New("snapshot: the shadow repository is busy")

// hold takes the repository lock for the operation under way, waiting for another process's operation (or for
// one of this process's background copy) when wait is set. r.mu is held; release lets go.
func (r *Repo) hold(ctx context.Context, wait bool) error {
	if r.held != nil {
		return nil
	}
	f, err := r.lockFile(ctx, wait)
	if err != nil {
		return err
	}
	r.held = f
	return nil
}

// release lets go of the repository lock, if held. r.mu is held.
func (r *Repo) release() {
	if r.held != nil {
		r.held.Close()
		r.held = nil
	}
}

// lockFile takes the repository lock through a descriptor of its own (two descriptors of one process exclude
// each other as two processes do), and clears what killed gits left.
func (r *Repo) lockFile(ctx context.Context, wait bool) (*os.File, error) {
	for delay := time.Millisecond; ; delay = min(2*delay, 50*time.Millisecond) {
		f, err := os.OpenFile(filepath.Join(r.dir, "rooted.lock"), os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			return nil, err
		}
		ok, err := tryLock(f)
		if ok {
			r.clearStale()
			return f, nil
		}
		f.Close()
		if err != nil {
			return nil, err
		}
		if !wait {
			return nil, errBusy
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(delay):
		}
	}
}

// staleLocks are git's lock files outside refs/: every one git may leave in a bare repository it was killed in.
var staleLocks = []string{
	"index.lock", "HEAD.lock", "config.lock", "packed-refs.lock", "shallow.lock", "gc.pid", "gc.log.lock",
	"objects/info/commit-graph.lock", "objects/info/commit-graphs/commit-graph-chain.lock",
	"objects/pack/multi-pack-index.lock", "objects/info/alternates.lock", "info/refs.lock", "objects/info/packs.lock",
}

// clearStale removes git's lock files from the shadow repository. The repository lock is held.
func (r *Repo) clearStale() {
	for _, name := range staleLocks {
		os.Remove(filepath.Join(r.dir, filepath.FromSlash(name)))
	}
	filepath.WalkDir(filepath.Join(r.dir, "refs"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(d.Name(), ".lock") {
			os.Remove(p)
		}
		return nil
	})
}
