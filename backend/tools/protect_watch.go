package tools

import (
	"errors"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/fsnotify/fsnotify"

	"github.com/rooted-dev/rooted/backend/gitguard"
)

// watcher keeps the protected paths as they were for the whole run of a command, by putting back each change as
// the kernel reports it (inotify): the only protection where the command has no mount namespace, and, where it
// has one, the guard against creating a protected path that did not exist (a .git/commondir, a .vscode folder),
// which no read-only bind can hold. It is weaker than a bind: between a change and its undoing, a tool outside the
// sandbox may read the change.
type watcher struct {
	root   *os.Root
	abs    string
	paths  []string // recorded: checked at the end where the binds could not be made after all
	live   []string // watched while the command runs: what could not be bound
	before map[string]*gitguard.Node
	w      *fsnotify.Watcher
	mu     sync.Mutex
	undo   *gitguard.PutBack
	// stopped: the command has ended; events still in flight are ignored (the user may edit these files now).
	stopped bool
	// stop ends the command the first time something is put back while it runs: a command that changes what is
	// protected is not let go on (re-planting a path in a loop would otherwise turn the moment between a change
	// and its undoing into a steady rate). tripped names what it changed.
	stop    func()
	tripped string
	// indexes are the repositories' index files with their work trees: a gitlink added to one during the run is
	// followed (gitlinkAdded). existed are the .git entries that were there before the command.
	indexes map[string]string
	existed func(string) bool
	// created judges a name created in a work-tree folder (protection.createdRule): a tool file or dependency
	// folder that a command makes anywhere ends it at once, not only after it (leftBehind removes it then).
	created func(rel string) bool
}

// maxNameWatches bounds the work-tree folders watched for new tool files and dependency folders: past it, what a
// command creates is still removed after it (leftBehind), only not while it runs.
const maxNameWatches = 20000

// watchNames watches the work-tree folders for what created judges, each folder of folders and every folder a
// command makes in them.
func (w *watcher) watchNames(folders []string, created func(string) bool) {
	if w.w == nil || created == nil || len(folders) > maxNameWatches {
		return
	}
	w.created = created
	for _, f := range folders {
		w.w.Add(filepath.Join(w.abs, filepath.FromSlash(f)))
	}
}

// newEntry looks at an entry created in a watched folder: a name the rule protects ends the command; a folder is
// watched in turn, and what it already holds (mkdir -p made it all at once) is looked at the same way.
func (w *watcher) newEntry(full string, depth int) {
	rel, err := filepath.Rel(w.abs, full)
	if err != nil || !filepath.IsLocal(rel) || depth > 8 {
		return
	}
	w.mu.Lock()
	stopped := w.stopped || w.tripped != ""
	w.mu.Unlock()
	if stopped {
		return
	}
	rel = filepath.ToSlash(rel)
	if w.created(rel) {
		w.mu.Lock()
		if !w.stopped && w.tripped == "" {
			w.tripped = rel
			if w.stop != nil {
				w.stop()
			}
		}
		w.mu.Unlock()
		return
	}
	// Not into what holds no tool files of the user's: git's data, an install's dependency folders, build output.
	if name := path.Base(rel); name == ".git" || gitguard.DependencyFolders[name] || gitguard.OutputFolders[name] {
		return
	}
	fi, err := os.Lstat(full)
	if err != nil || !fi.IsDir() {
		return
	}
	w.w.Add(full)
	entries, _ := os.ReadDir(full)
	for _, e := range entries {
		w.newEntry(filepath.Join(full, e.Name()), depth+1)
	}
}

// watchProtected records the protected paths and starts watching live, those among them that could not be bound,
// and the repositories' indexes (st.Indexes): where a gitlink added during the run leads, a .git that was not
// there before the command (st.HasEntry) is watched from then on, so that a repository the command makes there,
// which the user's git status would enter, ends the command. Without inotify (or with its limits reached) it still
// records the paths: close then puts back what changed, at the end. It watches the work-tree folders (st.Folders)
// too, for a tool file or dependency folder the command creates (created, watchNames).
func watchProtected(root *os.Root, abs string, paths, live []string, st *gitguard.State, stop func(), created func(string) bool) *watcher {
	w := &watcher{
		root: root, abs: abs, paths: paths, live: live, before: map[string]*gitguard.Node{}, undo: gitguard.NewPutBack(root), stop: stop,
		indexes: st.Indexes(), existed: st.HasEntry,
	}
	for _, p := range paths {
		budget := gitguard.MaxCaptured
		w.before[p] = gitguard.Capture(root, p, &budget)
	}
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return w
	}
	w.w = fw
	for _, p := range live {
		w.watch(p)
	}
	for index := range w.indexes {
		w.w.Add(filepath.Join(abs, filepath.FromSlash(path.Dir(index))))
	}
	w.watchNames(st.Folders(), created) // before the loop reads w.created
	go w.loop()
	return w
}

// gitlinkAdded watches the .git where each gitlink of index leads, if it did not exist before the command and is
// not watched yet, and checks it at once.
func (w *watcher) gitlinkAdded(index string) {
	w.mu.Lock()
	wt, ok := w.indexes[index]
	var added []string
	if ok && !w.stopped {
		for _, l := range gitguard.Gitlinks(w.root, index, wt) {
			p := path.Join(l, ".git")
			if _, seen := w.before[p]; seen || w.existed(p) {
				continue
			}
			w.before[p] = &gitguard.Node{}
			w.live = append(w.live, p)
			w.paths = append(w.paths, p)
			added = append(added, p)
		}
	}
	w.mu.Unlock()
	for _, p := range added {
		w.check(p, false)
	}
}

// watch adds every folder from the root down to the one p is in (renaming one moves p: .git renamed to .gitx and
// a new .git built), and every folder p holds.
func (w *watcher) watch(p string) {
	for d := path.Dir(p); ; d = path.Dir(d) {
		w.w.Add(filepath.Join(w.abs, filepath.FromSlash(d)))
		if d == "." || d == "/" {
			break
		}
	}
	for _, d := range w.before[p].Folders(p) {
		w.w.Add(filepath.Join(w.abs, filepath.FromSlash(d)))
	}
}

func (w *watcher) loop() {
	for {
		select {
		case ev, ok := <-w.w.Events:
			if !ok {
				return
			}
			if w.created != nil && ev.Op&fsnotify.Create != 0 {
				w.newEntry(ev.Name, 0)
			}
			for _, p := range w.owners(ev.Name) {
				w.check(p, false)
			}
			if rel, err := filepath.Rel(w.abs, ev.Name); err == nil {
				if _, ok := w.indexes[filepath.ToSlash(rel)]; ok {
					w.gitlinkAdded(filepath.ToSlash(rel))
				}
			}
		case err, ok := <-w.w.Errors:
			if !ok {
				return
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) { // events lost: look at everything
				for _, p := range w.live {
					w.check(p, false)
				}
			}
		}
	}
}

// owners are the protected paths an event's file is, lies in, or holds (an event on .git itself concerns
// .git/config and every other protected path below it, which are checked by their paths again).
func (w *watcher) owners(name string) []string {
	rel, err := filepath.Rel(w.abs, name)
	if err != nil || !filepath.IsLocal(rel) {
		return nil
	}
	rel = filepath.ToSlash(rel)
	var out []string
	for _, p := range w.live {
		if rel == p || strings.HasPrefix(rel, p+"/") || strings.HasPrefix(p, rel+"/") {
			out = append(out, p)
		}
	}
	return out
}

// check puts p back if it changed, and watches again what it put back (a folder recreated is a new one). Once the
// watcher is stopped only the last check (last) does anything.
func (w *watcher) check(p string, last bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped && !last {
		return
	}
	// Watched again first: a folder above p that was missing may have just been made (.config for
	// .config/mise.toml), and what is made in it next must be seen; what happened before the watch is seen by the
	// capture that follows.
	if w.w != nil && !last {
		w.watch(p)
	}
	budget := gitguard.MaxCaptured
	now := gitguard.Capture(w.root, p, &budget)
	if gitguard.Same(w.before[p], now) {
		return
	}
	w.undo.Tree(p, w.before[p], now)
	if !last && w.tripped == "" {
		w.tripped = p
		if w.stop != nil {
			w.stop()
		}
	}
	if w.w != nil && !last {
		w.watch(p)
	}
}

// close stops watching, puts back what changed since the last event (the last word where events were lost or
// never came), and returns what was put back during the whole run. unbound says the binds were not made after all
// (the namespace could not be had when the command started): every recorded path is then checked. The inotify
// descriptor is closed on the side: the kernel waits for a grace period to release its watches (some 20 ms),
// which no command should wait for.
func (w *watcher) close(unbound bool) (restored []string, stopped string) {
	w.mu.Lock()
	w.stopped = true
	w.mu.Unlock()
	if w.w != nil {
		go w.w.Close()
	}
	last := w.live
	if unbound {
		last = w.paths
	}
	for _, p := range last {
		w.check(p, true)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.undo.Report(), w.tripped
}
