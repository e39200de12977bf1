package snapshot

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/rooted-dev/rooted/backend/snapshot/gitobj"
)

// Diffing and restoring: both compare a snapshot with the project as it is now.

// Diff returns a unified diff from the snapshot to the files as they are now (optionally of one path).
func (r *Repo) Diff(ctx context.Context, id, path string) (string, error) {
	return r.DiffTo(ctx, id, "", path)
}

// DiffTo returns a unified diff from snapshot id to snapshot to, or to the files as they are now when to is
// empty (optionally of one path): what happened between two moments, such as one request's turn, commands'
// changes included. A partial snapshot knows nothing of the paths it did not record, so the diff is limited to the
// paths recorded by every partial snapshot it names.
func (r *Repo) DiffTo(ctx context.Context, id, to, path string) (string, error) {
	r.mu.LockWaited()
	defer r.mu.Unlock()
	defer r.release()
	full, err := r.resolve(ctx, id)
	if err != nil {
		return "", err
	}
	only, err := r.recorded(full)
	if err != nil {
		return "", err
	}
	var end string
	if to != "" {
		if end, err = r.resolve(ctx, to); err != nil {
			return "", err
		}
		later, err := r.recorded(end)
		if err != nil {
			return "", err
		}
		switch {
		case later == nil:
		case only == nil:
			only = later
		default:
			only = slices.DeleteFunc(only, func(p string) bool { return !slices.Contains(later, p) })
			if len(only) == 0 {
				return "", nil
			}
		}
	} else {
		// The present as a tree (new files included), without recording a snapshot.
		if end, _, err = r.presentTree(ctx); err != nil {
			return "", err
		}
	}
	args := []string{"diff", "--no-color", "--no-ext-diff", "--no-textconv", "--ignore-submodules=all", full, end}
	switch {
	case only != nil:
		if only = within(only, path); len(only) == 0 {
			return "", nil
		}
		args = append(append(args, "--"), only...)
	case path != "":
		args = append(args, "--", path)
	}
	out, err := r.git(ctx, nil, args...)
	return string(out), err
}

// RestoreResult says what a restore did.
type RestoreResult struct {
	Restored string   `json:"restored"` // the snapshot put back
	Backup   string   `json:"backup"`   // the snapshot of the state before, to undo the restore
	Written  []string `json:"written"`
	Removed  []string `json:"removed"`
	// GitRebuilt says the project's .git was gone or broken and was rebuilt from the refs the snapshot recorded.
	GitRebuilt bool `json:"git_rebuilt,omitempty"`
}

// Restore puts the files of snapshot id back: all of them, or those under paths. Files created since (under the
// paths restored) are removed. The state before is recorded first, so a restore can be undone. Each file is
// written whole and renamed into place: a restore cut short leaves every file as it was or as restored.
func (r *Repo) Restore(ctx context.Context, id string, paths []string) (RestoreResult, error) {
	full, only, err := func() (string, []string, error) {
		r.mu.LockWaited()
		defer r.mu.Unlock()
		full, err := r.resolve(ctx, id)
		if err != nil {
			return "", nil, err
		}
		only, err := r.recorded(full)
		return full, only, err
	}()
	if err != nil {
		return RestoreResult{}, err
	}
	if only != nil {
		// A partial snapshot restores its own paths (those under paths), and leaves every other file alone.
		var keep []string
		asked := paths
		if len(asked) == 0 {
			asked = []string{"."}
		}
		for _, p := range asked {
			keep = append(keep, within(only, p)...)
		}
		slices.Sort(keep)
		keep = slices.Compact(keep)
		if len(keep) == 0 {
			return RestoreResult{Restored: full, Written: []string{}, Removed: []string{}}, nil
		}
		paths = keep
	}
	before, err := r.Take(ctx, "Backup before restore of "+full[:12])
	if err != nil {
		return RestoreResult{}, fmt.Errorf("recording the state before the restore: %w", err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	spec := []string{"--"}
	if len(paths) == 0 {
		spec = append(spec, ".")
	} else {
		spec = append(spec, paths...)
	}
	// What differs between now (the backup just taken) and the snapshot, file by file.
	out, err := r.git(ctx, nil, append([]string{"diff-tree", "-r", "--no-renames", "--raw", "-z", before.ID, full}, spec...)...)
	if err != nil {
		return RestoreResult{}, err
	}
	res := RestoreResult{Restored: full, Backup: before.ID, Written: []string{}, Removed: []string{}}
	type write struct {
		path, mode string
		sha        [20]byte
	}
	var writes []write
	f := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	for i := 0; i+1 < len(f); i += 2 {
		// ":oldmode newmode oldsha newsha status", then the path.
		meta, p := strings.Fields(strings.TrimPrefix(f[i], ":")), f[i+1]
		if len(meta) != 5 || meta[0] == "160000" || meta[1] == "160000" {
			continue // a nested repository's pointer: git never enters it, and neither does a restore
		}
		switch meta[4] {
		case "A", "M", "T":
			sha, err := gitobj.Hex(meta[3])
			if err != nil {
				return res, err
			}
			writes = append(writes, write{p, meta[1], sha})
			res.Written = append(res.Written, p)
		case "D":
			res.Removed = append(res.Removed, p)
		}
	}
	// Removals first: a file that became a folder's name (or the reverse) makes room for what comes back.
	for _, p := range res.Removed {
		if err := removeInside(r.fsys, p); err != nil {
			return res, err
		}
	}
	for _, w := range writes {
		if err := r.writeBack(w.path, w.mode, w.sha); err != nil {
			return res, fmt.Errorf("restoring %s: %w", w.path, err)
		}
	}
	// The index now matches neither exactly; the next snapshot re-scans.
	r.primed = false
	if r.gitBroken() {
		rebuilt, err := r.rebuildGit(ctx, full)
		res.GitRebuilt = rebuilt
		if err != nil {
			return res, fmt.Errorf("rebuilding the project's .git: %w", err)
		}
	}
	r.appendLog(LogEntry{Time: time.Now().UTC(), Action: "restore", ID: full, Paths: paths, Backup: before.ID, Files: len(res.Written) + len(res.Removed)})
	return res, nil
}

// writeBack puts one recorded file back, through the project's root: its bytes (or a link's target) into a
// temporary file beside it, with its mode, renamed over whatever is there. A folder on the way that became a
// file or a link is replaced by a folder, as git would. r.mu is held.
func (r *Repo) writeBack(rel, mode string, sha [20]byte) error {
	content, err := r.objs.Read(sha, "blob")
	if err != nil {
		return err
	}
	p := filepath.FromSlash(rel)
	dir := filepath.Dir(p)
	if err := r.makeFolders(dir); err != nil {
		return err
	}
	if fi, err := r.fsys.Lstat(p); err == nil && fi.IsDir() {
		if err := r.fsys.Remove(p); err != nil {
			return fmt.Errorf("a folder is in its place now: %w", err)
		}
	}
	var suffix [6]byte
	rand.Read(suffix[:])
	tmp := filepath.Join(dir, "."+filepath.Base(p)+".rooted-"+hex.EncodeToString(suffix[:])+".tmp")
	if mode == "120000" {
		if err := r.fsys.Symlink(filepath.FromSlash(string(content)), tmp); err != nil {
			return err
		}
	} else {
		perm := fs.FileMode(0o644)
		if mode == "100755" {
			perm = 0o755
		}
		f, err := r.fsys.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if err != nil {
			return err
		}
		_, err = f.Write(content)
		if err == nil {
			err = f.Chmod(perm) // exactly the recorded mode, whatever the umask
		}
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			r.fsys.Remove(tmp)
			return err
		}
	}
	if err := r.fsys.Rename(tmp, p); err != nil {
		r.fsys.Remove(tmp)
		return err
	}
	return nil
}

// makeFolders makes dir and the folders above it, replacing a file or a link found where a folder belongs.
func (r *Repo) makeFolders(dir string) error {
	if dir == "." {
		return nil
	}
	if err := r.makeFolders(filepath.Dir(dir)); err != nil {
		return err
	}
	fi, err := r.fsys.Lstat(dir)
	switch {
	case err == nil && fi.IsDir():
		return nil
	case err == nil:
		if err := r.fsys.Remove(dir); err != nil {
			return err
		}
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	return r.fsys.Mkdir(dir, 0o755)
}
