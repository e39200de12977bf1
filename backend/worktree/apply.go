package worktree

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/rooted-dev/rooted/backend/tool"
)

// Applied says what Apply did to the main checkout.
type Applied struct {
	Worktree string   `json:"worktree"`
	Snapshot string   `json:"snapshot,omitempty"` // the main checkout before the change (restore_snapshot undoes it)
	Changed  []string `json:"changed"`            // paths written or removed
	Same     []string `json:"same,omitempty"`     // paths the main checkout already had as the worktree has them
	// Merged are the paths of Changed both sides had changed, whose changes were merged line by line.
	Merged []string `json:"merged,omitempty"`
}

// Conflict is a file Apply refused to change.
type Conflict struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
	// Hunks are the places both sides changed the file's lines differently, where a line merge found them.
	Hunks []Hunk `json:"hunks,omitempty"`
}

// step is one file of the change, checked and with its new content loaded.
type step struct {
	change
	data   []byte // new content (a symlink's target for mode 120000)
	before prior  // the file as the check saw it in the main checkout
	merged bool   // data is both sides' changes merged
}

// prior is a file as it was before Apply wrote it, to put it back if a later write fails.
type prior struct {
	rel    string
	exists bool
	mode   string
	data   []byte
}

// Apply brings everything the worktree changed since its base (committed on its branch or not) into the main
// checkout as one change. It refuses with conflict, naming each file, when the main checkout changed a file the
// worktree changed too (since the base); then nothing is written.
func (m *Manager) Apply(ctx context.Context, project, name string) (Applied, error) {
	r, err := openRepo(ctx, project)
	if err != nil {
		return Applied{}, err
	}
	w, err := m.get(r, name)
	if err != nil {
		return Applied{}, err
	}
	if _, err := os.Lstat(w.Path); err != nil {
		return Applied{}, &tool.Error{Code: tool.CodeNotFound, Path: w.Path, Message: fmt.Sprintf("the folder of the worktree %s is gone (%s); discard it", w.Name, errGone)}
	}
	tree, err := r.stateTree(ctx, w.Path)
	if err != nil {
		return Applied{}, err
	}
	list, err := r.changes(ctx, w.Base, tree)
	if err != nil {
		return Applied{}, err
	}
	root, err := os.OpenRoot(r.top)
	if err != nil {
		return Applied{}, err
	}
	defer root.Close()
	out := Applied{Worktree: w.Name, Changed: []string{}}
	steps, same, conflicts, err := r.check(ctx, root, list)
	if err != nil {
		return Applied{}, err
	}
	out.Same = same
	if len(conflicts) > 0 {
		names := make([]string, len(conflicts))
		for i, c := range conflicts {
			names[i] = c.Path + " (" + c.Reason + ")"
		}
		return Applied{}, &tool.Error{
			Code: tool.CodeConflict, Path: conflicts[0].Path, Details: map[string]any{"conflicts": conflicts},
			Message: fmt.Sprintf("the main checkout and the worktree %s changed %d file(s) in ways that do not merge: %s; nothing was applied (make each file what it should be in one checkout and copy it to the other, as a file the same on both sides is left alone, then apply again)",
				w.Name, len(conflicts), strings.Join(names, "; ")),
		}
	}
	if len(steps) == 0 {
		return out, nil
	}
	if m.Snapshots == nil {
		return Applied{}, &tool.Error{Code: tool.CodeBackupFailed, Message: "no snapshot of the main checkout can be taken here, so nothing was applied"}
	}
	paths := make([]string, len(steps))
	for i, s := range steps {
		paths[i] = s.Path
	}
	out.Snapshot, err = m.Snapshots.Before(ctx, root, r.top, "Backup before applying worktree "+w.Name, paths)
	if err != nil {
		return Applied{}, &tool.Error{Code: tool.CodeBackupFailed, Message: "the snapshot before applying failed, so nothing was applied: " + err.Error()}
	}
	if err := write(root, steps); err != nil {
		return Applied{}, err
	}
	out.Changed = paths
	for _, s := range steps {
		if s.merged {
			out.Merged = append(out.Merged, s.Path)
		}
	}
	return out, nil
}

// check compares each changed path of the main checkout with the worktree's base: a path still as it was at the
// base becomes a step; one already as the worktree has it is left alone; a file both sides changed is merged line
// by line, a step when the merge is clean; anything else is a conflict. Nothing is written.
func (r repo) check(ctx context.Context, root *os.Root, list []change) (steps []step, same []string, conflicts []Conflict, err error) {
	var ids []string
	for _, c := range list {
		for _, p := range [][2]string{{c.OldMode, c.OldID}, {c.NewMode, c.NewID}} {
			if p[0] != "000000" && p[0] != "160000" {
				ids = append(ids, p[1])
			}
		}
	}
	blobs, err := r.blobs(ctx, ids)
	if err != nil {
		return nil, nil, nil, err
	}
	for _, c := range list {
		if c.OldMode == "160000" || c.NewMode == "160000" {
			conflicts = append(conflicts, Conflict{Path: c.Path, Reason: "a submodule: bring it over by hand"})
			continue
		}
		now, err := current(root, filepath.FromSlash(c.Path))
		if err != nil {
			conflicts = append(conflicts, Conflict{Path: c.Path, Reason: err.Error()})
			continue
		}
		was := prior{exists: !c.added(), mode: c.OldMode, data: blobs[c.OldID]}
		will := prior{exists: !c.deleted(), mode: c.NewMode, data: blobs[c.NewID]}
		switch {
		case now.equal(will):
			same = append(same, c.Path)
		case now.equal(was):
			steps = append(steps, step{change: c, data: will.data, before: now})
		case !now.exists:
			conflicts = append(conflicts, Conflict{Path: c.Path, Reason: "deleted in the main checkout, changed in the worktree"})
		case !will.exists:
			conflicts = append(conflicts, Conflict{Path: c.Path, Reason: "deleted (or renamed) in the worktree, changed in the main checkout"})
		case now.mode == "040000" || now.mode == "special":
			conflicts = append(conflicts, Conflict{Path: c.Path, Reason: "not a file in the main checkout"})
		default:
			m, err := merge(ctx, was, now, will)
			if err != nil {
				return nil, nil, nil, fmt.Errorf("merging %s: %w", c.Path, err)
			}
			switch {
			case m.why != "":
				conflicts = append(conflicts, Conflict{Path: c.Path, Reason: m.why})
			case len(m.hunks) > 0:
				reason := "changed on both sides at " + describe(m.hunks)
				if !was.exists {
					reason = "created on both sides, differing at " + describe(m.hunks)
				}
				conflicts = append(conflicts, Conflict{Path: c.Path, Reason: reason, Hunks: m.hunks})
			default:
				c.NewMode = m.mode
				steps = append(steps, step{change: c, data: m.data, before: now, merged: true})
			}
		}
	}
	return steps, same, conflicts, nil
}

// equal reports whether two states of a path hold the same thing, as git records it.
func (p prior) equal(o prior) bool {
	if !p.exists || !o.exists {
		return p.exists == o.exists
	}
	return p.mode == o.mode && bytes.Equal(p.data, o.data)
}

// current reads rel in the main checkout as git would record it: its mode and content (a symlink's target).
func current(root *os.Root, rel string) (prior, error) {
	fi, err := root.Lstat(rel)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) { // a file where a parent folder was
		return prior{rel: rel}, nil
	}
	if err != nil {
		return prior{}, err
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		target, err := root.Readlink(rel)
		if err != nil {
			return prior{}, err
		}
		return prior{rel: rel, exists: true, mode: "120000", data: []byte(target)}, nil
	case fi.Mode().IsRegular():
		f, err := root.Open(rel)
		if err != nil {
			return prior{}, err
		}
		defer f.Close()
		b, err := io.ReadAll(f)
		if err != nil {
			return prior{}, err
		}
		mode := "100644"
		if fi.Mode().Perm()&0o111 != 0 {
			mode = "100755"
		}
		return prior{rel: rel, exists: true, mode: mode, data: b}, nil
	case fi.IsDir():
		return prior{rel: rel, exists: true, mode: "040000"}, nil // never equal to a file: a conflict
	default:
		return prior{rel: rel, exists: true, mode: "special"}, nil
	}
}

// write carries out the checked steps, each file atomically; when one fails, those written are put back as they
// were, so the main checkout holds the whole change or none of it.
func write(root *os.Root, steps []step) error {
	var done []prior
	for _, s := range steps {
		rel := filepath.FromSlash(s.Path)
		was, err := current(root, rel)
		if err == nil && !was.equal(s.before) { // changed since the check: someone else is writing it now
			err = errChangedMeanwhile
		}
		if err == nil {
			err = put(root, rel, prior{rel: rel, exists: !s.deleted(), mode: s.NewMode, data: s.data})
		}
		if err != nil {
			for i := len(done) - 1; i >= 0; i-- {
				_ = put(root, done[i].rel, done[i])
			}
			code := tool.CodeInternal
			if errors.Is(err, errChangedMeanwhile) {
				code = tool.CodeConflict
			}
			return &tool.Error{Code: code, Path: s.Path, Message: fmt.Sprintf("applying %s failed, so the files written before it were put back: %v", s.Path, err)}
		}
		done = append(done, was)
	}
	return nil
}

var errChangedMeanwhile = errors.New("it changed in the main checkout while the change was being applied")

// put makes rel hold p: removed when p does not exist, else written beside and renamed over it.
func put(root *os.Root, rel string, p prior) error {
	if !p.exists {
		if err := root.Remove(rel); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		for dir := filepath.Dir(rel); dir != "."; dir = filepath.Dir(dir) {
			if root.Remove(dir) != nil { // only an empty folder goes, as git leaves none behind
				break
			}
		}
		return nil
	}
	if dir := filepath.Dir(rel); dir != "." {
		if err := root.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	tmp := filepath.Join(filepath.Dir(rel), "."+path.Base(filepath.ToSlash(rel))+".rooted-apply.tmp")
	_ = root.Remove(tmp)
	if p.mode == "120000" {
		if err := root.Symlink(string(p.data), tmp); err != nil {
			return err
		}
	} else {
		perm := fs.FileMode(0o644)
		if p.mode == "100755" {
			perm = 0o755
		}
		f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if err != nil {
			return err
		}
		_, err = f.Write(p.data)
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = root.Chmod(tmp, perm) // the umask may have taken bits the file is meant to have
		}
		if err != nil {
			_ = root.Remove(tmp)
			return err
		}
	}
	if fi, err := root.Lstat(rel); err == nil && fi.IsDir() {
		_ = root.Remove(tmp)
		return fmt.Errorf("%s is a folder", rel)
	}
	if err := root.Rename(tmp, rel); err != nil {
		_ = root.Remove(tmp)
		return err
	}
	return nil
}
