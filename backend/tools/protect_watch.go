package tools

import (
	"errors"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/fsnotify/fsnotify"
)

// watcher keeps the protected paths as they were for the whole run of a command, by putting back each change as
// the kernel reports it (inotify): the only protection where the command has no mount namespace, and, where it
// has one, the guard against creating a protected path that did not exist (a .git/commondir, a .vscode folder),
// which no read-only bind can hold. It is weaker than a bind: between a change and its undoing, a tool outside the
// sandbox may read the change.
type watcher struct {
	root   *os.Root
	abs    string
	paths  []string
	before map[string]*node
	w      *fsnotify.Watcher
	mu     sync.Mutex
	undo   putBack
	// stopped: the command has ended; events still in flight are ignored (the user may edit these files now).
	stopped bool
	// stop ends the command the first time something is put back while it runs: a command that changes what is
	// protected is not let go on (re-planting a path in a loop would otherwise turn the moment between a change
	// and its undoing into a steady rate). tripped names what it changed.
	stop    func()
	tripped string
	// created judges a name created in a work-tree folder (nameRule): a tool file or dependency folder that a
	// command makes anywhere ends it at once, not only after it (leftBehind removes it then).
	created func(rel string) bool
}

// maxNameWatches bounds the work-tree folders watched for new tool files and dependency folders: past it, what a
// command creates is still removed after it (leftBehind), only not while it runs.
const maxNameWatches = 20000

// watchNames watches the work-tree folders for what created judges, each folder of folders and every folder a
// command makes in them.
func (w *watcher) watchNames(folders []string, created func(string) bool) {
	if w.w == nil || len(folders) > maxNameWatches {
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
	if name := path.Base(rel); name == ".git" || depFolders[name] || outputFolders[name] {
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

// watchProtected records the protected paths and starts watching them, and the work-tree folders for what
// created judges (watchNames). Without inotify (or with its limits
// reached) it still records them: close then puts back what changed, at the end.
func watchProtected(root *os.Root, abs string, paths []string, stop func(), folders []string, created func(string) bool) *watcher {
	w := &watcher{root: root, abs: abs, paths: paths, before: map[string]*node{}, undo: putBack{root: root}, stop: stop}
	for _, p := range paths {
		budget := maxCaptured
		w.before[p] = capture(root, p, &budget)
	}
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return w
	}
	w.w = fw
	for _, p := range paths {
		w.watch(p)
	}
	w.watchNames(folders, created) // before the loop reads w.created
	go w.loop()
	return w
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
	var add func(p string, n *node)
	add = func(p string, n *node) {
		if n.exists && n.mode.IsDir() {
			w.w.Add(filepath.Join(w.abs, filepath.FromSlash(p)))
			for name, k := range n.kids {
				add(path.Join(p, name), k)
			}
		}
	}
	add(p, w.before[p])
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
		case err, ok := <-w.w.Errors:
			if !ok {
				return
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) { // events lost: look at everything
				for _, p := range w.paths {
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
	for _, p := range w.paths {
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
	budget := maxCaptured
	now := capture(w.root, p, &budget)
	if same(w.before[p], now) {
		return
	}
	w.undo.tree(p, w.before[p], now)
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
// never came), and returns what was put back during the whole run. The inotify descriptor is closed on the side:
// the kernel waits for a grace period to release its watches (some 20 ms), which no command should wait for.
func (w *watcher) close() (restored []string, stopped string) {
	w.mu.Lock()
	w.stopped = true
	w.mu.Unlock()
	if w.w != nil {
		go w.w.Close()
	}
	for _, p := range w.paths {
		w.check(p, true)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.undo.report(), w.tripped
}
