package snapshot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/rooted-dev/rooted/backend/ignore"
	"github.com/rooted-dev/rooted/backend/smallfile"
)

// Taking snapshots: full ones (a scan through the shadow index, or a tree derived from the previous one with the
// watcher's changes, derive.go), and partial ones while a scan runs (partial.go).

// excludeEvery bounds how often a full scan refreshes the exclude file: finding big files walks the tree, and a
// changed exclude file voids git's untracked cache.
const excludeEvery = time.Minute

// Take records the project's state now. An unchanged state returns the previous snapshot.
func (r *Repo) Take(ctx context.Context, reason string) (Snapshot, error) {
	return r.TakeFor(ctx, reason, nil)
}

// TakeFor records the project's state before a change to paths (nil: a change to anything, as a command's). It
// does not wait for a full scan in progress (the first snapshot of a big project, taken in the background when it
// opened, here or in another Rooted process): it records just paths, as they are now, in a partial snapshot (see
// Snapshot.Paths). Before a change to anything, the shadow repository stops borrowing the project's objects: a
// command may delete them.
func (r *Repo) TakeFor(ctx context.Context, reason string, paths []string) (Snapshot, error) {
	if !isBackground(ctx) {
		// Someone waits for this snapshot (an edit, a command): foreground work of the workspace, which its
		// background work yields to and which other workspaces' searches leave a share of the CPUs.
		defer r.yielder.Lane.Foreground()()
	}
	if len(paths) == 0 {
		select {
		case r.wakeChan() <- struct{}{}: // a full snapshot is wanted: a paused first one starts now
		default:
		}
		r.mu.LockWaited()
	} else if !r.mu.TryLock() {
		if r.mu.Scanning() {
			return r.takePartial(reason, paths)
		}
		r.mu.LockWaited()
	}
	if len(paths) > 0 && !r.derivable() {
		// A scan is needed: if another process is scanning, record the paths alone rather than wait for it.
		if err := r.hold(ctx, false); errors.Is(err, errBusy) {
			r.mu.Unlock()
			return r.takePartial(reason, paths)
		}
	}
	defer r.mu.Unlock()
	defer r.release()
	s, err := r.takeLocked(ctx, reason)
	if err == nil && len(paths) == 0 && r.borrowing() {
		if err := r.detachLocked(ctx); err != nil {
			return s, fmt.Errorf("copying the project's objects into the snapshot repository: %w", err)
		}
	}
	return s, err
}

// TakeAfter is Take after a pause, for the first snapshot of a large project just opened: its first tool calls (a
// search reading every file) then have the machine to themselves instead of sharing it with a scan of the same
// files. During the pause the repository counts as scanning: an edit is recorded at once in a partial snapshot of
// its paths, and a call that needs a full snapshot (a command's backup) ends the pause. Listing, diffing and
// restoring wait for the first snapshot, as they do while it scans (listing at most listWait).
func (r *Repo) TakeAfter(ctx context.Context, pause time.Duration, reason string) (Snapshot, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	defer r.release()
	r.mu.SetScanning(true)
	defer r.mu.SetScanning(false)
	r.scanFrom = time.Now()
	t := time.NewTimer(pause)
	defer t.Stop()
	select {
	case <-t.C:
	case <-r.wakeChan():
	case <-ctx.Done():
		return Snapshot{}, ctx.Err()
	}
	r.yieldToSearches(ctx)
	return r.takeLocked(ctx, reason)
}

func (r *Repo) wakeChan() chan struct{} {
	r.wakeOnce.Do(func() { r.wake = make(chan struct{}, 1) })
	return r.wake
}

// derivable reports whether the next snapshot can be derived from the previous tree, without a scan. r.mu is held.
func (r *Repo) derivable() bool {
	return r.track && r.primed && r.baseTre != "" && (r.healthy == nil || r.healthy())
}

// takeLocked takes a full snapshot; r.mu is held.
func (r *Repo) takeLocked(ctx context.Context, reason string) (Snapshot, error) {
	start := r.scanFrom
	r.scanFrom = time.Time{}
	if start.IsZero() {
		start = time.Now()
	}
	if !r.primed || !r.track {
		r.mu.SetScanning(true) // before anything that may take a while, edits meanwhile need not wait
		defer r.mu.SetScanning(false)
	}
	if r.lastTre == "" {
		r.loadLast(ctx)
	}
	tree, files, err := r.presentTree(ctx)
	if err != nil {
		return Snapshot{}, err
	}
	// The project's refs: a failure to copy them (a broken .git) must not keep the files from being recorded.
	r.yieldToSearches(ctx)
	hist, err := r.history(ctx)
	if err != nil {
		slog.Warn("snapshot: the project's refs were not recorded", "root", r.root, "err", err)
	}
	opened := r.openedTree(tree, start)
	snap, err := r.record(ctx, opened, hist, reason, files)
	if err == nil && opened != tree {
		// The next snapshot compares with what is on disk, and must be a commit of its own: the one just made
		// holds some paths as they were before edits that have since landed.
		r.last, r.lastTre = Snapshot{}, tree
	}
	return snap, err
}

// record commits tree as a snapshot, with hist (the project's refs, history.go) as its parent, unless both are the
// previous one's; files is how many paths changed, or -1 to ask git. r.mu is held.
func (r *Repo) record(ctx context.Context, tree, hist, reason string, files int) (Snapshot, error) {
	if tree == r.lastTre && hist == r.lastHist && r.last.ID != "" {
		r.appendLog(LogEntry{Time: time.Now().UTC(), Action: "backup", ID: r.last.ID, Reason: reason + " (unchanged since " + r.last.ID[:12] + ")"})
		return r.last, nil
	}
	if files < 0 {
		files = 0
		if r.lastTre != "" {
			if out, err := r.git(ctx, nil, "diff-tree", "-r", "--name-only", "--no-renames", r.lastTre, tree); err == nil {
				files = bytes.Count(out, []byte{'\n'})
			}
		} else if out, err := r.git(ctx, nil, "ls-tree", "-r", "--name-only", tree); err == nil {
			files = bytes.Count(out, []byte{'\n'})
		}
	}
	now := time.Now().UTC()
	msg := fmt.Sprintf("%s\n\nFiles: %d\n", reason, files)
	var parents []string
	if hist != "" {
		parents = []string{hist}
	}
	id, err := r.objs.WriteCommit(tree, msg, now.Unix(), parents...)
	if err != nil {
		return Snapshot{}, err
	}
	if err := r.updateRef(snapshotRef(now), id); err != nil {
		return Snapshot{}, err
	}
	r.last, r.lastTre, r.lastHist = Snapshot{ID: id, Time: now, Reason: reason, Files: files}, tree, hist
	if r.detachOK && !r.detachStarted && r.borrowing() {
		r.startDetach() // now that a ref holds the borrowed objects, repack can see them
	}
	r.appendLog(LogEntry{Time: now, Action: "backup", ID: id, Reason: reason, Files: files})
	r.since++
	if r.since >= 50 || r.overBudget() {
		r.since = 0
		r.retain(ctx)
	}
	return r.last, nil
}

// snapshotRef names the ref of a snapshot taken at t: refs sort as snapshots were taken.
func snapshotRef(t time.Time) string { return fmt.Sprintf("refs/snapshots/%020d", t.UnixNano()) }

// updateRef points ref at id, as a loose ref written whole (a temporary file outside refs/, renamed into place:
// a process killed midway leaves no lock file and no half-written ref).
func (r *Repo) updateRef(ref, id string) error {
	p := filepath.Join(r.dir, filepath.FromSlash(ref))
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(r.dir, "tmp_ref_")
	if err != nil {
		return err
	}
	_, err = f.WriteString(id + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), p)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// forgetEditedDuringScan drops from the staging index the paths edited while a scan ran (partial snapshots), so the
// add that follows reads them again. The scan may have staged such a file just before the edit, and an edit of
// the same size within the file's timestamp tick leaves git's stat data unchanged: git would keep the staged
// content, and the next backup would record the file as it was before the edit. r.mu and the repository lock are
// held.
func (r *Repo) forgetEditedDuringScan(ctx context.Context) error {
	r.partial.Lock()
	paths := slices.Sorted(maps.Keys(r.rehash))
	r.rehash = nil
	r.partial.Unlock()
	if len(paths) == 0 {
		return nil
	}
	if _, err := r.git(ctx, []byte(strings.Join(paths, "\x00")), "update-index", "--force-remove", "-z", "--stdin"); err != nil {
		r.partial.Lock()
		for _, p := range paths {
			if r.rehash == nil {
				r.rehash = map[string]bool{}
			}
			r.rehash[p] = true
		}
		r.partial.Unlock()
		return err
	}
	return nil
}

// stage brings the shadow index up to date with the tree: all of it the first time, or with tracking off; only
// the changed paths otherwise. It takes the repository lock (lock.go), which the operation keeps until it ends.
func (r *Repo) stage(ctx context.Context, dirty map[string]bool) error {
	if err := r.hold(ctx, true); err != nil {
		return err
	}
	if r.track && r.healthy != nil && !r.healthy() {
		r.track, r.primed = false, false
	}
	if !r.primed || !r.track {
		if !r.primed || time.Since(r.exclAt) > excludeEvery {
			r.yieldToSearches(ctx)
			if err := r.writeExcludes(ctx); err != nil {
				return err
			}
			r.exclAt = time.Now()
		}
		if !r.primed {
			r.yieldToSearches(ctx)
			r.seedFromProject(ctx)
		}
		r.yieldToSearches(ctx)
		if err := r.forgetEditedDuringScan(ctx); err != nil {
			return err
		}
		r.yieldToSearches(ctx)
		if _, err := r.git(ctx, nil, "add", "-A", "--ignore-errors", "."); err != nil {
			return err
		}
		r.primed = true
		return nil
	}
	if len(dirty) == 0 {
		return nil
	}
	// Paths that exist are added; paths gone (deleted, or a temporary file already renamed away) are dropped from
	// the index, where they may or may not be: add -A refuses a path that matches nothing.
	var present, gone []string
	for p := range dirty {
		fi, err := r.fsys.Lstat(filepath.FromSlash(p))
		switch {
		case err != nil:
			gone = append(gone, p)
		case fi.Mode().IsRegular() && fi.Size() > MaxFileSize:
			gone = append(gone, p) // too large to record: keep an older copy out of new snapshots
		default:
			present = append(present, p)
			r.noteBlocking(p)
		}
	}
	sort.Strings(present)
	sort.Strings(gone)
	if len(present) > 0 {
		_, err := r.git(ctx, []byte(strings.Join(present, "\x00")), "add", "-A", "--ignore-errors", "--pathspec-from-file=-", "--pathspec-file-nul")
		// Naming an ignored path makes add exit 1 after staging the others; being ignored is the right outcome.
		if err != nil && !strings.Contains(err.Error(), "ignored by one of your") {
			return err
		}
	}
	if len(gone) > 0 {
		if _, err := r.git(ctx, []byte(strings.Join(gone, "\x00")), "rm", "-r", "-q", "--cached", "--ignore-unmatch", "--pathspec-from-file=-", "--pathspec-file-nul"); err != nil {
			return err
		}
	}
	return nil
}

// presentTree returns the tree of the project as it is now, and how many paths changed when it was derived (-1
// when a scan through the shadow index made it). Derived when the project is watched and a base is known: the
// base tree (every change not in r.dirty) with the dirty paths replaced. r.mu is held.
func (r *Repo) presentTree(ctx context.Context) (string, int, error) {
	taken, rescan := r.takeDirty()
	if rescan {
		r.primed = false
	}
	if r.derivable() {
		dirty := slices.Sorted(maps.Keys(taken))
		tree, changed, err := r.baseTre, 0, error(nil)
		replaced := false
		if len(dirty) > 0 {
			tree, changed, replaced, err = r.derive(r.baseTre, dirty)
		}
		switch {
		case err == nil:
			r.baseTre = tree
			r.derived++
			if replaced && changed > 0 {
				return tree, -1, nil // a folder rebuilt whole: git counts what really changed in it
			}
			return tree, changed, nil
		case !errors.Is(err, errDeriveFallback):
			r.putBackDirty(taken)
			return "", 0, err
		}
		r.primed = false // the index has not seen the derived trees: a full scan brings it up to date
	}
	if err := r.stage(ctx, taken); err != nil {
		r.putBackDirty(taken)
		return "", 0, err
	}
	r.yieldToSearches(ctx)
	out, err := r.git(ctx, nil, "write-tree")
	if err != nil {
		r.putBackDirty(taken)
		return "", 0, err
	}
	r.baseTre = strings.TrimSpace(string(out))
	return r.baseTre, -1, nil
}

// writeExcludes refreshes the shadow repository's exclude file: heavy folders, the user's global excludes and the
// project's own .git/info/exclude (git is run without the user's configuration, so the rules are passed on here),
// and files over MaxFileSize found in the tree. ctx only says whether this is background work (which yields to
// searches as it walks); the walk is not cut short.
func (r *Repo) writeExcludes(ctx context.Context) error {
	var b strings.Builder
	b.WriteString("# written by Rooted\n")
	for _, h := range heavy {
		b.WriteString(h + "\n")
	}
	if global := ignore.GlobalExcludesFile(); global != "" {
		if own, err := smallfile.Read(global); err == nil {
			b.Write(own)
			b.WriteByte('\n')
		}
	}
	// The project's own excludes, read through its root and only when a plain file (never through a link).
	if fi, err := r.fsys.Lstat(filepath.Join(".git", "info", "exclude")); err == nil && fi.Mode().IsRegular() {
		if own, err := smallfile.ReadIn(r.fsys, filepath.Join(".git", "info", "exclude")); err == nil {
			b.Write(own)
			b.WriteByte('\n')
		}
	}
	walkCtx := context.Background()
	if isBackground(ctx) {
		walkCtx = Background(walkCtx)
	}
	big, blocking := scanTree(walkCtx, r.fsys, r.yieldToSearches)
	r.addBlocking(blocking)
	for _, big := range big {
		b.WriteString("/" + escapeGlob(big) + "\n")
	}
	return writeWhole(filepath.Join(r.dir, "info", "exclude"), []byte(b.String()))
}
