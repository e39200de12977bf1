package tools

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

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
	// submodules are the .git entries of declared submodules not checked out yet, each with the git folder git
	// clones it into (gitguard.State.PendingSubmodules): git submodule update making them is let run, as long as
	// entry and folder keep the shape git writes (fault); anything else there is put back and ends the command.
	submodules map[string]string
	fault      func(entry, dir string) string
	// faulted are the declared submodules found not in git's shape beside the loop (checkSubmodule): their .git
	// goes, each time it is made again.
	faulted map[string]bool
	// repos are the repositories the command makes during the run where no gitlink leads (git init, git clone in
	// a work-tree folder), by their .git, each with the git folder it leads to: judged from their making on, by
	// the shape git gives a new repository (gitguard.State.NewRepoFault), and disarmed (DisarmRepo) the moment
	// they hold more, so that git run in them outside (a shell prompt, an editor opening the folder) never runs
	// what the command planted.
	repos map[string]string
	git   *gitguard.State
	// judging and again coalesce the judging of a new repository, which runs beside the event loop (it asks git,
	// which takes a while, and the loop must see a gitlink added meanwhile at once); judges waits for them.
	judging, again map[string]bool
	judges         sync.WaitGroup
	// created judges a name created in a work-tree folder (protection.createdRule): a tool file or dependency
	// folder that a command makes anywhere ends it at once, not only after it (leftBehind removes it then).
	created func(rel string) bool
	// locks are git's lock files beside the recorded paths (.git/config.lock) that were not there when the
	// command started: a command ended mid-write leaves one, and git outside then refuses to touch the file.
	locks []string
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
	if path.Base(rel) == ".git" {
		w.repoMade(rel)
		return
	}
	// Not into what holds no tool files of the user's: an install's dependency folders, build output.
	if name := path.Base(rel); gitguard.DependencyFolders[name] || gitguard.OutputFolders[name] {
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
		indexes: st.Indexes(), existed: st.HasEntry, submodules: st.PendingSubmodules(root),
		fault: func(entry, dir string) string { return st.SubmoduleFault(root, abs, entry, dir) },
		repos: map[string]string{}, git: st, judging: map[string]bool{}, again: map[string]bool{}, faulted: map[string]bool{},
	}
	w.undo.SetAsideIn(setAsideDir(abs))
	for _, p := range paths {
		budget := gitguard.MaxCaptured
		w.before[p] = gitguard.Capture(root, p, &budget)
		if _, err := root.Lstat(p + ".lock"); errors.Is(err, fs.ErrNotExist) {
			w.locks = append(w.locks, p+".lock")
		}
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

// setAsideDir is where the watcher keeps a copy of what it takes away during one command (gitguard.PutBack's
// set-aside): the user's cache folder / rooted/set-aside/<project>-<time>, outside the project and outside what
// commands may write (only each private cache under the cache folder's rooted/ is theirs).
func setAsideDir(abs string) string {
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	return filepath.Join(base, "rooted", "set-aside", filepath.Base(abs)+"-"+time.Now().Format("20060102-150405.000000000"))
}

// gitlinkAdded watches the .git where each gitlink of index leads, if it did not exist before the command and is
// not watched yet, and checks it at once.
func (w *watcher) gitlinkAdded(index string) {
	wt, ok := w.indexes[index]
	if !ok {
		return
	}
	for _, l := range gitguard.Gitlinks(w.root, index, wt) {
		if p := path.Join(l, ".git"); w.holdAbsent(p) {
			w.check(p, false)
		}
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
			for _, entry := range w.newRepos(ev.Name) {
				w.cutPlain(entry)
				w.judge(entry)
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
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				w.overflowed()
			}
		}
	}
}

// overflowed looks at everything once the kernel has dropped events: every protected path, every index for a
// gitlink added meanwhile (whose event may be among those lost), and every new repository being judged.
func (w *watcher) overflowed() {
	w.mu.Lock()
	live := slices.Clone(w.live)
	repos := slices.Collect(maps.Keys(w.repos))
	w.mu.Unlock()
	for _, p := range live {
		w.check(p, false)
	}
	for index := range w.indexes {
		w.gitlinkAdded(index)
	}
	for _, entry := range repos {
		w.judge(entry)
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
	for entry, dir := range w.submodules {
		if rel == dir || strings.HasPrefix(dir, rel+"/") || runsIn(name, rel, dir) {
			out = append(out, entry)
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
	want := w.before[p]
	if dir, ok := w.submodules[p]; ok {
		// A declared submodule being cloned: judged by its shape, not against its absence. The git folder is
		// watched from the start (it is made before the .git file), so that each change in it is judged as well:
		// here, in the loop, what needs no program (a plainly planted configuration, the .git leading elsewhere),
		// at once; the rest, which asks git, beside the loop (judge), which must not fall behind the events
		// meanwhile (on a loaded machine, a second behind: a second of git status outside running a plant).
		if w.w != nil && !last {
			w.watchSubmodule(dir)
		}
		switch {
		case w.faulted[p] || gitguard.QuickSubmoduleFault(w.root, w.abs, p, dir) != "":
		case last:
			if w.fault(p, dir) == "" {
				return
			}
		default:
			w.judgeLocked(p)
			return
		}
		want = &gitguard.Node{} // not git's shape: the .git goes, and with it the way into the folder
	}
	if gitguard.Same(want, now) {
		return
	}
	if !last && w.tripped == "" { // ended first: the put-back (and the copy it keeps) gives it no more time
		w.tripped = p
		if w.stop != nil {
			w.stop()
		}
	}
	w.undo.Tree(p, want, now)
	if w.w != nil && !last {
		w.watch(p)
	}
}

// watchSubmodule watches a declared submodule's git folder, and the folders in it git reads settings and hooks
// from, from where it is (or will be) made down.
func (w *watcher) watchSubmodule(dir string) {
	for d := path.Dir(dir); d != "." && d != "/"; d = path.Dir(d) {
		w.w.Add(filepath.Join(w.abs, filepath.FromSlash(d)))
	}
	for _, d := range []string{dir, path.Join(dir, "hooks"), path.Join(dir, "info")} {
		w.w.Add(filepath.Join(w.abs, filepath.FromSlash(d)))
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
	w.judges.Wait()
	w.mu.Lock()
	repos := slices.Collect(maps.Keys(w.repos))
	w.mu.Unlock()
	for _, entry := range repos {
		w.checkRepo(entry, true)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.tripped != "" {
		w.removeLocks()
	}
	return w.undo.Report(), w.tripped
}

// removeLocks removes the lock files the command left beside the recorded paths. Only a command the watcher ended
// is asked: git killed between two writes of its configuration (git remote add writes it twice) keeps the second
// lock, and every git after it, the user's and the next command's, would fail with "could not lock config file"
// until someone removed it by hand. The command's processes have all ended by now.
func (w *watcher) removeLocks() {
	for _, lock := range w.locks {
		if _, err := w.root.Lstat(lock); err == nil {
			w.undo.Remove(lock, "removed "+lock+", which git left when the command was ended mid-write")
		}
	}
}
