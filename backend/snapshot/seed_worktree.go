package snapshot

import (
	"context"
	"os"
	"path/filepath"
)

// SeedFromWorktree starts the shadow repository of a git worktree Rooted made itself (package worktree) from the
// worktree's own index, borrowing the repository's objects, as the first snapshot of a plain repository is seeded
// from its .git: the worktree's first snapshot then hashes only what changed since it was checked out, not every
// file. index is the worktree's index file and objects the repository's objects folder; the caller vouches for
// both, since a worktree's .git file may name any folder and a snapshot never follows one by itself. It does
// nothing (false) when the shadow repository has an index already, or the files are not what they should be.
func (r *Repo) SeedFromWorktree(ctx context.Context, index, objects string) (bool, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, err := os.Stat(filepath.Join(r.dir, "index")); err == nil {
		return false, nil
	}
	if fi, err := os.Stat(objects); err != nil || !fi.IsDir() {
		return false, nil
	}
	for _, name := range []string{"alternates", "http-alternates"} { // a repository that borrows in turn
		if _, err := os.Lstat(filepath.Join(objects, "info", name)); err == nil {
			return false, nil
		}
	}
	fi, err := os.Lstat(index)
	if err != nil || !fi.Mode().IsRegular() {
		return false, nil
	}
	data, err := os.ReadFile(index)
	if err != nil || len(data) < 12 || string(data[:4]) != "DIRC" {
		return false, nil
	}
	if err := r.hold(ctx, true); err != nil {
		return false, err
	}
	defer r.release()
	return r.seedWith(ctx, data, objects), nil
}
