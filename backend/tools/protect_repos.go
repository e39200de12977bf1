package tools

// The repositories a command makes during its run, and the declared submodules it checks out: judged from their
// making, beside the event loop where judging asks git.

import (
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rooted-dev/rooted/backend/gitdir"
	"github.com/rooted-dev/rooted/backend/gitguard"
)

// repoMade starts judging the repository the command is making at the .git entry, unless it is one the watcher
// keeps otherwise (there before the command, a protected path, a declared submodule).
func (w *watcher) repoMade(entry string) {
	w.mu.Lock()
	_, kept := w.before[entry]
	_, sub := w.submodules[entry]
	_, seen := w.repos[entry]
	if kept || sub || seen || w.existed(entry) {
		w.mu.Unlock()
		return
	}
	w.mu.Unlock()
	// Where a gitlink leads that was not declared before the command, the user's git status enters the
	// repository: held against its absence, as gitlinkAdded holds it, so that its making ends the command at once.
	// Looked up here too, not only on the index's event: the making may be seen first (the loop behind, events
	// lost), and the shape rule would then let it run until its configuration turned bad.
	if w.gitlinkLeads(entry) {
		if w.holdAbsent(entry) {
			w.check(entry, false)
		}
		return
	}
	w.mu.Lock()
	if _, seen := w.repos[entry]; seen || w.stopped {
		w.mu.Unlock()
		return
	}
	w.repos[entry] = entry
	w.watchRepoLocked(entry, false)
	w.mu.Unlock()
	// In the loop first, before the judging beside it is scheduled: a configuration already planted goes at once,
	// and the git folder is watched from here on, so that a plant after this is an event the loop sees.
	w.cutPlain(entry)
	w.judge(entry)
}

// gitlinkLeads reports whether a gitlink in a repository's index, as it is now, leads to the .git entry.
func (w *watcher) gitlinkLeads(entry string) bool {
	for index, wt := range w.indexes { // not changed after watchProtected: read without the lock
		if slices.Contains(gitguard.Gitlinks(w.root, index, wt), path.Dir(entry)) {
			return true
		}
	}
	return false
}

// holdAbsent records the .git entry p, which was not there before the command, as protected against its making
// from now on (watched, and checked at the end); false when it is held already, or was there before the command.
func (w *watcher) holdAbsent(p string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, seen := w.before[p]; seen || w.stopped || w.existed(p) {
		return false
	}
	w.before[p] = &gitguard.Node{}
	w.live = append(w.live, p)
	w.paths = append(w.paths, p)
	return true
}

// judge has the new repository at entry judged (checkRepo) beside the event loop: one judging at a time per
// repository, and one more after it when events came meanwhile.
func (w *watcher) judge(entry string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.judgeLocked(entry)
}

// judgeLocked is judge, with w.mu held. A declared submodule's .git is judged by checkSubmodule, any other by
// checkRepo.
func (w *watcher) judgeLocked(entry string) {
	if w.stopped {
		return
	}
	if w.judging[entry] {
		w.again[entry] = true
		return
	}
	w.judging[entry] = true
	w.judges.Add(1)
	go func() {
		defer w.judges.Done()
		for {
			if _, sub := w.submodules[entry]; sub { // not changed after watchProtected: read without the lock
				w.checkSubmodule(entry)
			} else {
				w.checkRepo(entry, false)
			}
			w.mu.Lock()
			if !w.again[entry] || w.stopped {
				w.judging[entry] = false
				w.mu.Unlock()
				return
			}
			w.again[entry] = false
			w.mu.Unlock()
		}
	}()
}

// checkRepo watches the new repository at entry where it is now, and disarms it, ending the command, as soon as it
// holds more than git gives a new repository. Once the watcher is stopped only the last check does anything.
func (w *watcher) checkRepo(entry string, last bool) {
	w.mu.Lock()
	if w.stopped && !last {
		w.mu.Unlock()
		return
	}
	w.watchRepoLocked(entry, last)
	w.mu.Unlock()
	// Judged without the lock: it asks git to read the configuration, which takes a while, and a gitlink added
	// meanwhile (which makes git outside enter the repository) must still be seen at once (gitlinkAdded).
	if w.git.NewRepoFault(w.root, w.abs, entry) == "" {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped && !last {
		return // the command ended meanwhile: close judges it once more
	}
	if !last && w.tripped == "" { // ended first: nothing more is planted while it is disarmed
		w.tripped = entry
		if w.stop != nil {
			w.stop()
		}
	}
	// A plainly planted configuration goes first, at once: disarming the rest asks git again, which on a loaded
	// machine takes a second, in which git outside would run the plant a few hundred times.
	w.cutPlainLocked(entry)
	w.git.DisarmRepo(w.undo, w.root, w.abs, entry)
}

// watchRepoLocked records where the new repository at entry keeps its git folder now (a .git file may lead
// elsewhere), and watches that folder and the ones git runs programs from, with w.mu held.
func (w *watcher) watchRepoLocked(entry string, last bool) {
	dir := entry
	if b, err := w.root.ReadFile(entry); err == nil {
		if t, ok := gitdir.ParseGitFile(b); ok {
			if rel, err := filepath.Rel(w.abs, filepath.Join(w.abs, filepath.Dir(filepath.FromSlash(entry)), t)); err == nil && filepath.IsLocal(rel) {
				dir = filepath.ToSlash(rel)
			}
		}
	}
	w.repos[entry] = dir
	if w.w != nil && !last {
		for _, d := range []string{path.Dir(dir), dir, path.Join(dir, "hooks"), path.Join(dir, "info")} {
			w.w.Add(filepath.Join(w.abs, filepath.FromSlash(d)))
		}
	}
}

// cutPlain takes out of git's way at once, in the loop, a configuration file of the new repository at entry that
// plainly sets a program (gitguard.PlainlyRuns), and ends the command: judging the repository (judge) asks git,
// and git outside would run the program meanwhile. What it took is set aside and reported; the judging that
// follows disarms the rest. The repository stays one git can use: it needs no configuration file.
func (w *watcher) cutPlain(entry string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		return
	}
	if w.cutPlainLocked(entry) && w.tripped == "" {
		w.tripped = entry
		if w.stop != nil {
			w.stop()
		}
	}
}

// cutPlainLocked takes the configuration file of the new repository at entry that plainly sets a program out of
// git's way, with w.mu held, and reports whether there was one.
func (w *watcher) cutPlainLocked(entry string) bool {
	file, key := gitguard.PlainlyRuns(w.root, w.repos[entry])
	if file == "" {
		return false
	}
	w.undo.RemoveKept(file, "removed "+file+", which the command made set "+key+" while it ran")
	return true
}

// checkSubmodule judges the declared submodule whose .git is entry in full (gitguard.State.SubmoduleFault: hooks,
// links, git's own reading of the configuration), beside the loop, since it asks git; not in git's shape, it is
// marked faulted and checked, which takes its .git away and ends the command.
func (w *watcher) checkSubmodule(entry string) {
	if w.fault(entry, w.submodules[entry]) == "" {
		return
	}
	w.mu.Lock()
	stopped := w.stopped
	w.faulted[entry] = true // once the command has ended as well: close's last check takes the .git then
	w.mu.Unlock()
	if !stopped {
		w.check(entry, false)
	}
}

// runsIn reports whether the event's file (name, rel root-relative) lies in the git folder dir where it decides what
// git runs (runsFrom), or is a link or special file anywhere in it: git writes its index, locks and fetched refs
// there all the time while it clones, and judging the repository at each of those would keep the watcher behind
// the one event that matters.
func runsIn(name, rel, dir string) bool {
	rest, ok := strings.CutPrefix(rel, dir+"/")
	if !ok {
		return false
	}
	if first, _, _ := strings.Cut(rest, "/"); runsFrom[first] {
		return true
	}
	fi, err := os.Lstat(name)
	return err == nil && !fi.Mode().IsRegular() && !fi.IsDir()
}

// runsFrom are the names in a git folder that decide what git runs: its settings, hooks, and where it reads them.
var runsFrom = map[string]bool{"config": true, "config.worktree": true, "commondir": true, "hooks": true, "info": true, "gitdir": true}

// newRepos are the repositories made during the run (repos) that an event's file is, or lies in.
func (w *watcher) newRepos(name string) []string {
	rel, err := filepath.Rel(w.abs, name)
	if err != nil || !filepath.IsLocal(rel) {
		return nil
	}
	rel = filepath.ToSlash(rel)
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []string
	for entry, dir := range w.repos {
		switch {
		case rel == entry || rel == dir || strings.HasPrefix(dir, rel+"/"):
			out = append(out, entry)
		case runsIn(name, rel, dir):
			// Not for the index and locks git outside (a polling git status) writes there all the time.
			out = append(out, entry)
		}
	}
	return out
}
