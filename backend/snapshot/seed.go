package snapshot

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// seedFromProject starts an empty shadow index from the project's own git index and lets the shadow repository
// borrow the project's objects (objects/info/alternates), so the first full snapshot re-hashes and stores only
// what is modified or untracked: the index's stat data is valid for the same work tree. It reads the project's
// .git and never writes to it. A project that is not a plain git repository (none, a worktree's .git file, a
// split index) is left to the full path; seeding returns whether it seeded.
//
// Borrowing is undone by detach, which copies the borrowed objects into the shadow repository in the background
// of a long-lived process, so that a later gc in the project cannot take objects a snapshot needs.
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
	alternates := filepath.Join(r.dir, "objects", "info", "alternates")
	if err := os.MkdirAll(filepath.Dir(alternates), 0o700); err != nil {
		return false
	}
	undo := func() { os.Remove(index); os.Remove(alternates) }
	if os.WriteFile(alternates, []byte(objects+"\n"), 0o600) != nil || os.WriteFile(index, data, 0o600) != nil {
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

// detach copies every object the shadow repository borrows from the project into its own pack and stops
// borrowing. It runs in the background after a seeded first snapshot; until it finishes, snapshots depend on the
// project's objects, which git keeps for two weeks after they become unreachable.
func (r *Repo) detach(ctx context.Context) error {
	if _, err := r.git(ctx, nil, "repack", "-a", "-d", "-q"); err != nil {
		return err
	}
	if err := os.Remove(filepath.Join(r.dir, "objects", "info", "alternates")); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}
