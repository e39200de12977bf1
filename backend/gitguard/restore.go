package gitguard

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/rooted-dev/rooted/backend/gitdir"
)

// restore undoes what a command changed of what git would read since before was scanned, and returns what it
// undid, and what it could not. The steps run in order, each on a scan of what the earlier ones left: first where
// git finds its folders (the .git entries, links, special files and commondir pointers), then what it reads in
// them (configuration, todo lists, hooks). after is the project as the last scan found it.
func (before *State) restore(root *os.Root, abs string) (said []string, after *State) {
	r := &restoring{before: before, root: root, abs: abs, u: &PutBack{root: root}}
	r.after = before.guard.scan(root, abs)
	r.steps(true, r.gitEntries, r.newEntries, r.specialFiles, r.links, r.pointers)
	r.steps(true, r.changedConfigs, r.newConfigs)
	r.steps(false, r.todos, r.hooks, r.removedHooks)
	return r.u.Report(), r.after
}

// restoring is one restore: the scan before the command, the latest scan after it, and the account of what was
// put back.
type restoring struct {
	before, after *State
	root          *os.Root
	abs           string
	u             *PutBack
}

// steps runs steps in turn, each reporting whether it changed anything; with rescan, a change means a new scan
// for the steps that follow.
func (r *restoring) steps(rescan bool, steps ...func() bool) {
	changed := false
	for _, s := range steps {
		changed = s() || changed
	}
	if rescan && changed {
		r.after = r.before.guard.scan(r.root, r.abs)
	}
}

// gitEntries puts each .git back as it was: a folder moved back, a gitdir file or link restored.
func (r *restoring) gitEntries() bool {
	changed := false
	for p, b := range r.before.entries {
		a, ok := r.after.entries[p]
		if ok && a.mode.Type() == b.mode.Type() && (b.mode.IsDir() && os.SameFile(a.info, b.info) || !b.mode.IsDir() && bytes.Equal(a.data, b.data)) {
			continue
		}
		if b.mode.IsDir() {
			changed = r.gitFolder(p, b, a, ok) || changed
			continue
		}
		if ok && a.mode.IsDir() {
			continue // a folder now: a new repository, checked as one
		}
		if b.mode&fs.ModeSymlink != 0 {
			changed = r.u.link(p, string(b.data), "restored "+p+", which the command changed") || changed
		} else {
			changed = r.u.file(p, b.data, b.mode.Perm(), "restored "+p+", which the command changed") || changed
		}
	}
	return changed
}

// gitFolder moves the repository's folder p back from where the command moved it (found by its identity among
// the git folders now, or where a .git file or link now at p leads), removing what the command put in its place.
// A folder deleted is left to the snapshots, which recover history.
func (r *restoring) gitFolder(p string, b, a guarded, present bool) bool {
	if present && a.mode.IsDir() {
		return false // another folder: a new repository, checked below as one
	}
	src := ""
	for g := range r.after.dirs {
		if fi, err := r.root.Lstat(g); err == nil && os.SameFile(fi, b.info) {
			src = g
		}
	}
	if src == "" && present && a.dest != "" {
		if fi, err := r.root.Lstat(a.dest); err == nil && fi.IsDir() {
			src = a.dest
		}
	}
	replaced := "removed " + p + ", which the command put in place of the repository's folder"
	switch {
	case src != "":
		if present && !r.u.Remove(p, replaced) {
			return false
		}
		return r.u.rename(src, p, fmt.Sprintf("put back %s, which the command moved to %s", p, src))
	case present:
		return r.u.Remove(p, replaced)
	}
	return false
}

// newEntries removes a .git file or link the command added that leads git out of the project, or to no
// repository Rooted recognises: where the guard cannot tell the repository git would use, it does not guess.
func (r *restoring) newEntries() bool {
	changed := false
	for p, a := range r.after.entries {
		if _, had := r.before.entries[p]; had || a.mode.IsDir() {
			continue
		}
		switch {
		case a.dest == "":
			changed = r.u.Remove(p, "removed "+p+": it leads git to a repository outside the project") || changed
		case !gitdir.Is(filepath.Join(r.abs, filepath.FromSlash(a.dest))):
			changed = r.u.Remove(p, "removed "+p+": it leads git to no repository Rooted recognises") || changed
		}
	}
	return changed
}

// specialFiles removes a named pipe or other special file the command left in a git folder (HEAD, packed-refs,
// config), which the user's git would block on.
func (r *restoring) specialFiles() bool {
	changed := false
	for p := range r.after.odd {
		if !r.before.odd[p] {
			changed = r.u.Remove(p, "removed "+p+", a named pipe or other special file the command left in a git folder") || changed
		}
	}
	return changed
}

// links removes a link the command put in a git folder, or changed.
func (r *restoring) links() bool {
	changed := false
	for p, a := range r.after.links {
		if b, had := r.before.links[p]; had && bytes.Equal(b.data, a.data) {
			continue
		}
		changed = r.u.Remove(p, "removed "+p+", a link the command put in a git folder") || changed
	}
	return changed
}

// pointers restores a commondir file the command pointed elsewhere, and removes one it added, unless it makes a
// new linked worktree of a repository in the project whose common folder points back.
func (r *restoring) pointers() bool {
	changed := false
	for p, a := range r.after.pointers {
		b, had := r.before.pointers[p]
		if had && bytes.Equal(b.data, a.data) {
			continue
		}
		if _, made := gitdir.Common(filepath.Join(r.abs, filepath.FromSlash(path.Dir(p)))); !had && made {
			continue
		}
		if had {
			changed = r.u.file(p, b.data, b.mode.Perm(), "restored "+p+", which the command pointed elsewhere") || changed
		} else {
			changed = r.u.Remove(p, "removed "+p+", which pointed git at another repository") || changed
		}
	}
	return changed
}

// changedConfigs restores whole a configuration file whose program-running settings the command changed, as
// git's own parser reads them, or which git or Rooted can no longer read, or which the command removed.
func (r *restoring) changedConfigs() bool {
	changed := false
	for p, b := range r.before.configs {
		a, ok := r.after.configs[p]
		if ok && bytes.Equal(a.data, b.data) {
			continue
		}
		why := r.configChange(b, a, ok)
		if why == "" {
			continue
		}
		changed = r.u.file(p, b.data, b.mode.Perm(), fmt.Sprintf("restored %s: %s", p, why)) || changed
	}
	return changed
}

// configChange says why a configuration file that changed from b to a (present: it is still there) must be put
// back, "" when no program-running setting changed.
func (r *restoring) configChange(b, a guarded, present bool) string {
	switch {
	case !present:
		return "the command removed it"
	case a.unreadable:
		return "Rooted could not read what the command wrote"
	}
	keys, err := r.before.guard.lists.execKeysChanged(b.data, a.data)
	switch {
	case err != nil:
		return "git could not read what the command wrote"
	case len(keys) == 0:
		return ""
	default:
		return "the command set " + strings.Join(keys, ", ")
	}
}

// newConfigs leaves a configuration file the command created (git init, clone, config.worktree) only the settings
// a new repository may keep, and removes one git or Rooted cannot read.
func (r *restoring) newConfigs() bool {
	changed := false
	for p, a := range r.after.configs {
		if _, had := r.before.configs[p]; had {
			continue
		}
		if a.unreadable {
			changed = r.u.Remove(p, fmt.Sprintf("removed %s: Rooted could not read it", p)) || changed
			continue
		}
		// A core.worktree back to the work tree git found the folder from (git submodule update, git worktree add)
		// stays: it names no program, and without it the new submodule's git would not know its files.
		keys, clean, err := r.before.guard.lists.stripNewRepoKeys(a.data, func(k string, v []string) bool {
			return k == "core.worktree" && r.after.keptWorktree(r.abs, p, v)
		})
		switch {
		case err != nil:
			changed = r.u.Remove(p, fmt.Sprintf("removed %s: git could not read it", p)) || changed
		case len(keys) > 0:
			changed = r.u.file(p, clean, a.mode.Perm(), fmt.Sprintf("removed %s from %s, which the command created", strings.Join(keys, ", "), p)) || changed
		}
	}
	return changed
}

// todos drops the exec lines a command left in a stopped rebase's or cherry-pick's todo list, which the user's
// --continue would run, and removes a todo list Rooted cannot read.
func (r *restoring) todos() bool {
	changed := false
	for p, a := range r.after.todos {
		if b, had := r.before.todos[p]; had && bytes.Equal(b.data, a.data) && !a.unreadable {
			continue
		}
		if a.unreadable {
			changed = r.u.Remove(p, fmt.Sprintf("removed %s: Rooted could not read it", p)) || changed
			continue
		}
		if clean, execs := withoutExecLines(a.data); execs > 0 {
			changed = r.u.file(p, clean, a.mode.Perm(), fmt.Sprintf("removed %d exec line(s) from %s (git would run them on --continue)", execs, p)) || changed
		}
	}
	return changed
}

// hooks removes a hook the command added and restores one it changed.
func (r *restoring) hooks() bool {
	changed := false
	for p, a := range r.after.hooks {
		b, had := r.before.hooks[p]
		switch {
		case had && b.mode == a.mode && bytes.Equal(b.data, a.data):
		case !had:
			changed = r.u.Remove(p, fmt.Sprintf("removed %s, a hook the command added (git would run it)", p)) || changed
		case b.mode&fs.ModeSymlink != 0:
			changed = r.u.link(p, string(b.data), fmt.Sprintf("restored %s, a hook the command changed (git would run it)", p)) || changed
		default:
			changed = r.u.file(p, b.data, b.mode.Perm(), fmt.Sprintf("restored %s, a hook the command changed (git would run it)", p)) || changed
		}
	}
	return changed
}

// removedHooks restores a hook the command removed along with its folder (replaced by a link, which links
// removed).
func (r *restoring) removedHooks() bool {
	changed := false
	for p, b := range r.before.hooks {
		if _, ok := r.after.hooks[p]; ok || !b.mode.IsRegular() {
			continue
		}
		if _, err := r.root.Lstat(path.Dir(p)); err != nil {
			changed = r.u.file(p, b.data, b.mode.Perm(), fmt.Sprintf("restored %s, a hook the command removed", p)) || changed
		}
	}
	return changed
}
