package snapshot

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/rooted-dev/rooted/backend/gitexec"
)

// seedFromProject starts an empty shadow index from the project's own git index and lets the shadow repository
// borrow the project's objects (objects/info/alternates), so the first full snapshot re-hashes and stores only
// what is modified or untracked: the index's stat data is valid for the same work tree. It reads the project's
// .git and never writes to it. A project that is not a plain git repository (none, a worktree's .git file, a
// split index) is left to the full path; seeding returns whether it seeded.
//
// Borrowing is undone by detach, which copies the borrowed objects into the shadow repository: in the background
// of a long-lived process after the first snapshot, and at the latest before a change to anything (a command's,
// which may delete the project's .git), in every process. The alternates file is written before the index, each
// whole: a process killed while seeding leaves no index that needs objects the repository cannot reach. The
// repository lock is held.
func (r *Repo) seedFromProject(ctx context.Context) bool {
	index := filepath.Join(r.dir, "index")
	if _, err := os.Stat(index); err == nil {
		return false // the shadow index exists: it is already the better cache
	}
	if fi, err := r.fsys.Lstat(".git"); err != nil || !fi.IsDir() {
		return false
	}
	if matches, _ := fs.Glob(r.fsys.FS(), ".git/sharedindex.*"); len(matches) > 0 {
		return false // a split index: the index alone is not the whole of it
	}
	// Through the root: a .git/index that is a link out of the project is refused, not followed.
	data, err := r.fsys.ReadFile(filepath.Join(".git", "index"))
	if err != nil || len(data) < 12 || string(data[:4]) != "DIRC" {
		return false
	}
	objects := filepath.Join(r.root, ".git", "objects")
	if fi, err := r.fsys.Stat(filepath.Join(".git", "objects")); err != nil || !fi.IsDir() {
		return false
	}
	// git reads every file of a repository it borrows from, as it needs them, with no way to be told to skip one: a
	// named pipe there (objects/info/alternates, a pack, a loose object) would block every git of the shadow
	// repository. Nor is a project borrowed that borrows in turn: its alternates could lead anywhere.
	for _, name := range []string{"alternates", "http-alternates"} {
		if _, err := r.fsys.Lstat(filepath.Join(".git", "objects", "info", name)); err == nil {
			return false
		}
	}
	if len(gitexec.GitDirPipes(ctx, r.fsys, ".git/objects")) > 0 {
		return false
	}
	return r.seedWith(ctx, data, objects)
}

// seedWith writes the shadow index from data (a git index of the same work tree) and borrows objects, then
// refreshes the index; it undoes both when it cannot. The repository lock is held.
func (r *Repo) seedWith(ctx context.Context, data []byte, objects string) bool {
	index := filepath.Join(r.dir, "index")
	alternates := filepath.Join(r.dir, "objects", "info", "alternates")
	if err := os.MkdirAll(filepath.Dir(alternates), 0o700); err != nil {
		return false
	}
	undo := func() { os.Remove(index); os.Remove(alternates) }
	if writeWhole(alternates, []byte(objects+"\n")) != nil || writeWhole(index, data) != nil {
		undo()
		return false
	}
	// Entries the project marked assume-unchanged or skip-worktree would hide real changes from add -A.
	if _, err := r.git(ctx, nil, "update-index", "-q", "--no-assume-unchanged", "--no-skip-worktree", "--really-refresh"); err != nil && !isRefreshNotice(err) {
		undo()
		return false
	}
	return true
}

// isRefreshNotice tells update-index's "needs update" exit (files changed since the index was written, which the
// add that follows records) from a real failure.
func isRefreshNotice(err error) bool {
	return strings.Contains(err.Error(), "needs update") || strings.Contains(err.Error(), "needs merge")
}

// DetachBorrowed lets this repository copy the objects it borrows from the project in the background, after the
// snapshot that needs them. Only a process that lives on should: a CLI call that exits at once would start the copy
// each time (the copy before a command's change is made in every process). Stop ends it.
func (r *Repo) DetachBorrowed() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.detachOK = true
}

// startDetach copies the borrowed objects in the background, under the repository lock of its own. r.mu is held.
func (r *Repo) startDetach() {
	ctx, stop := context.WithCancel(Background(context.Background()))
	done := make(chan struct{})
	r.detachStarted, r.detachStop, r.detached = true, stop, done
	go func() {
		defer close(done)
		r.yieldToSearches(ctx)
		lock, err := r.lockFile(ctx, true)
		if err == nil {
			err = r.detach(ctx, lock)
			lock.Close()
		}
		if err != nil {
			r.mu.Lock()
			r.detachStarted = false // try again after the next snapshot
			r.mu.Unlock()
		}
	}()
}

// detachLocked copies the borrowed objects now. r.mu is held; it takes the repository lock.
func (r *Repo) detachLocked(ctx context.Context) error {
	if err := r.hold(ctx, true); err != nil {
		return err
	}
	if !r.borrowing() {
		return nil // copied meanwhile
	}
	return r.detach(ctx, r.held)
}

// waitDetached waits for a background copy of borrowed objects to finish (tests).
func (r *Repo) waitDetached() {
	r.mu.Lock()
	done := r.detached
	r.mu.Unlock()
	if done != nil {
		<-done
	}
}

// borrowing reports whether the shadow repository borrows objects from the project.
func (r *Repo) borrowing() bool {
	_, err := os.Stat(filepath.Join(r.dir, "objects", "info", "alternates"))
	return err == nil
}

// detach copies every object the shadow repository borrows from the project into its own pack and stops
// borrowing; lock is the repository lock, held. Until it has run, snapshots depend on the project's objects.
// A process killed meanwhile leaves a repository that still borrows, and the next copy starts over.
func (r *Repo) detach(ctx context.Context, lock *os.File) error {
	if _, err := r.gitCmd(ctx, lock, "repack").Run(ctx, nil, "repack", "-a", "-d", "-q"); err != nil {
		return err
	}
	if err := os.Remove(filepath.Join(r.dir, "objects", "info", "alternates")); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}
