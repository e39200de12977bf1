// Package watch reports what changes under a project root: fsnotify watches on every directory that is not ignored
// (watches are per directory, so they are added and removed as directories come and go), events debounced per
// path and delivered in batches.
//
// Guarantees: events name paths relative to the root with forward slashes; paths git would ignore produce none;
// a directory that appears is watched and everything already inside it is reported as created (mkdir -p then
// write can beat the watch); Close stops every goroutine and releases every watch. When the system's watch limit
// (fs.inotify.max_user_watches) is reached the watcher keeps what it has, says so in Status, and consumers are
// expected to re-scan what they show.
//
// Not guaranteed: the order of events within a batch; events from changes faster than the kernel's queue (an
// overflow is reported as a Rescan event for the whole tree).
package watch

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/rooted-dev/rooted/backend/ignore"
	"github.com/rooted-dev/rooted/backend/walk"
)

// Op says what happened to a path; several can be set after debouncing.
type Op uint8

const (
	Create Op = 1 << iota
	Write
	Remove
	Rename
	Chmod
	// Rescan says the watcher lost track (queue overflow, ignore rules changed): consumers re-read Path and below.
	Rescan
)

func (o Op) String() string {
	var parts []string
	for i, name := range []string{"create", "write", "remove", "rename", "chmod", "rescan"} {
		if o&(1<<i) != 0 {
			parts = append(parts, name)
		}
	}
	return strings.Join(parts, "|")
}

// MarshalText lets events travel as JSON with readable ops.
func (o Op) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// Event is one changed path.
type Event struct {
	Path string `json:"path"` // slash path from the root; "" is the root itself
	Op   Op     `json:"op"`
}

// Options tune debouncing.
type Options struct {
	// Quiet is how long a path must see no event before its event is delivered (default 50 ms).
	Quiet time.Duration
	// MaxDelay bounds how long a busy path's event can be held back (default 150 ms).
	MaxDelay time.Duration
	// Notify, when set, is called with every event as soon as it is seen, before debouncing, from the watcher's
	// goroutine: for caches that must drop what changed at once. It must not block.
	Notify func(Event)
	// MaxWatches caps the directories watched, leaving the rest of the system's watch budget to other programs;
	// past it the watcher is degraded as at the system's limit (0: no cap of our own).
	MaxWatches int
	// Yield, when set, is called between folders of the first walk of the tree (in New) and may wait: the walk
	// is background work beside a search of the same tree that someone waits for. Until New returns nothing
	// reports changes, so waiting loses none (each folder is watched before it is listed).
	Yield func()
}

// Status describes the watcher's coverage.
type Status struct {
	Watched  int    `json:"watched"`  // directories watched
	Degraded bool   `json:"degraded"` // some directories could not be watched
	Reason   string `json:"reason,omitempty"`
}

// ErrLimit is the reason of a watcher that hit the system's limit on watches.
var ErrLimit = errors.New("the system's limit on file watches is reached (fs.inotify.max_user_watches); " +
	"changes in some folders are not seen live: raise the limit, for example sysctl fs.inotify.max_user_watches=524288")

// Watcher watches one project root.
type Watcher struct {
	root    *os.Root
	abs     string
	opt     Options
	fsw     *fsnotify.Watcher
	out     chan []Event
	done    chan struct{}
	stopped sync.WaitGroup

	mu      sync.Mutex
	matcher *ignore.Matcher
	dirs    map[string]bool // slash paths of watched directories ("" is the root)
	status  Status
}

// New starts watching root, whose absolute path is abs (fsnotify watches by path). Events arrive on Events.
func New(root *os.Root, abs string, opt Options) (*Watcher, error) {
	if opt.Quiet <= 0 {
		opt.Quiet = 50 * time.Millisecond
	}
	if opt.MaxDelay < opt.Quiet {
		opt.MaxDelay = max(150*time.Millisecond, opt.Quiet)
	}
	fsw, err := fsnotify.NewBufferedWatcher(4096)
	if err != nil {
		return nil, err
	}
	w := &Watcher{
		root: root, abs: abs, opt: opt, fsw: fsw,
		out: make(chan []Event, 64), done: make(chan struct{}),
		matcher: ignore.New(root), dirs: map[string]bool{},
	}
	w.addTreeYielding("", nil, opt.Yield)
	w.stopped.Add(1)
	go w.loop()
	return w, nil
}

// Events delivers batches of debounced events. It is closed by Close.
func (w *Watcher) Events() <-chan []Event { return w.out }

// Status reports how much of the tree is watched.
func (w *Watcher) Status() Status {
	w.mu.Lock()
	defer w.mu.Unlock()
	s := w.status
	s.Watched = len(w.dirs)
	return s
}

// Close stops watching and waits for the watcher's goroutine to end.
func (w *Watcher) Close() error {
	select {
	case <-w.done:
		return nil
	default:
	}
	close(w.done)
	err := w.fsw.Close()
	w.stopped.Wait()
	return err
}

// addTree watches dir and every directory below it that is not ignored. When found is not nil, the paths already
// inside are appended to it, as creations. Directories already watched are walked through, so a resync finds
// what became visible anywhere below. Each folder is watched before it is listed, so nothing created in between
// is missed.
func (w *Watcher) addTree(dir string, found *[]Event) { w.addTreeYielding(dir, found, nil) }

// addTreeYielding is addTree, calling yield (when not nil) before each folder below dir.
func (w *Watcher) addTreeYielding(dir string, found *[]Event, yield func()) {
	r, err := w.root.OpenRoot(filepath.FromSlash(cmpOr(dir, ".")))
	if err != nil {
		return // vanished, unreadable, or a link out of the project: nothing to watch
	}
	r.Close()
	w.mu.Lock()
	m := w.matcher
	w.mu.Unlock()
	if !w.watch(dir) {
		return
	}
	opt := walk.Options{IncludeHidden: true, Ignore: m, Dirs: true}
	_ = walk.Walk(context.Background(), w.root, dir, opt, func(e walk.Entry) error {
		if found != nil {
			*found = append(*found, Event{Path: e.Rel, Op: Create})
		}
		if e.IsDir() && yield != nil {
			yield()
		}
		if e.IsDir() && !w.watch(e.Rel) {
			return fs.SkipDir
		}
		return nil
	})
}

// watch adds a watch on dir unless it has one, and reports whether dir is watched.
func (w *Watcher) watch(dir string) bool {
	w.mu.Lock()
	known, degraded, watched := w.dirs[dir], w.status.Degraded, len(w.dirs)
	w.mu.Unlock()
	if known {
		return true
	}
	if !degraded && w.opt.MaxWatches > 0 && watched >= w.opt.MaxWatches {
		w.mu.Lock()
		w.status.Degraded, w.status.Reason = true, fmt.Sprintf("more than %d folders to watch; changes in some are not seen live", w.opt.MaxWatches)
		w.mu.Unlock()
		degraded = true
	}
	if degraded {
		return false
	}
	if err := w.fsw.Add(filepath.Join(w.abs, filepath.FromSlash(dir))); err != nil {
		if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EMFILE) {
			w.mu.Lock()
			w.status.Degraded, w.status.Reason = true, ErrLimit.Error()
			w.mu.Unlock()
		}
		return false // vanished or unreadable: nothing to watch
	}
	w.mu.Lock()
	w.dirs[dir] = true
	w.mu.Unlock()
	return true
}

// removeTree forgets the watches of dir and below (the kernel drops a deleted directory's own watch; a renamed
// one would otherwise keep reporting under its old name).
func (w *Watcher) removeTree(dir string) {
	w.mu.Lock()
	var gone []string
	for d := range w.dirs {
		if d == dir || strings.HasPrefix(d, dir+"/") || dir == "" {
			gone = append(gone, d)
			delete(w.dirs, d)
		}
	}
	w.mu.Unlock()
	for _, d := range gone {
		_ = w.fsw.Remove(filepath.Join(w.abs, filepath.FromSlash(d)))
	}
}

func (w *Watcher) rel(name string) (string, bool) {
	r, err := filepath.Rel(w.abs, name)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", false
	}
	if r == "." {
		return "", true
	}
	return filepath.ToSlash(r), true
}

// loop turns raw events into debounced batches.
func (w *Watcher) loop() {
	defer w.stopped.Done()
	defer close(w.out)
	type pending struct {
		op          Op
		first, last time.Time
	}
	queue := map[string]*pending{}
	var tick *time.Ticker
	var tickC <-chan time.Time
	note := func(p string, op Op) {
		now := time.Now()
		if q := queue[p]; q != nil {
			q.op |= op
			q.last = now
		} else {
			queue[p] = &pending{op: op, first: now, last: now}
		}
		if tick == nil {
			tick = time.NewTicker(max(w.opt.Quiet/4, 5*time.Millisecond))
			tickC = tick.C
		}
	}
	for {
		select {
		case <-w.done:
			if tick != nil {
				tick.Stop()
			}
			return
		case err, ok := <-w.fsw.Errors:
			if !ok {
				continue
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				if w.opt.Notify != nil {
					w.opt.Notify(Event{Op: Rescan})
				}
				note("", Rescan)
			}
		case ev, ok := <-w.fsw.Events:
			if !ok {
				continue
			}
			for _, e := range w.translate(ev) {
				if w.opt.Notify != nil {
					w.opt.Notify(e)
				}
				note(e.Path, e.Op)
			}
		case now := <-tickC:
			var batch []Event
			for p, q := range queue {
				if now.Sub(q.last) >= w.opt.Quiet || now.Sub(q.first) >= w.opt.MaxDelay {
					batch = append(batch, Event{Path: p, Op: q.op})
					delete(queue, p)
				}
			}
			if len(queue) == 0 {
				tick.Stop()
				tick, tickC = nil, nil
			}
			if len(batch) > 0 {
				select {
				case w.out <- batch:
				case <-w.done:
					return
				}
			}
		}
	}
}

// translate maps one fsnotify event to Rooted's events, keeping the watch set in step with the tree.
func (w *Watcher) translate(ev fsnotify.Event) []Event {
	rel, ok := w.rel(ev.Name)
	if !ok || rel == "" {
		return nil
	}
	base := path.Base(rel)
	if base == ".git" || strings.HasPrefix(rel, ".git/") {
		return nil
	}
	var op Op
	switch {
	case ev.Has(fsnotify.Create):
		op = Create
	case ev.Has(fsnotify.Write):
		op = Write
	case ev.Has(fsnotify.Remove):
		op = Remove
	case ev.Has(fsnotify.Rename):
		op = Rename
	case ev.Has(fsnotify.Chmod):
		op = Chmod
	}
	// Ignore rules changed: what is watched and what a consumer lists may both be wrong now.
	if base == ".gitignore" || base == ".ignore" {
		w.mu.Lock()
		w.matcher = ignore.New(w.root)
		w.mu.Unlock()
		w.resync()
		dir := path.Dir(rel)
		if dir == "." {
			dir = ""
		}
		return []Event{{Path: rel, Op: op}, {Path: dir, Op: Rescan}}
	}
	w.mu.Lock()
	m, watched := w.matcher, w.dirs[rel]
	w.mu.Unlock()
	if op&(Remove|Rename) != 0 {
		if watched {
			w.removeTree(rel)
		}
		return []Event{{Path: rel, Op: op}}
	}
	fi, err := w.root.Lstat(filepath.FromSlash(rel))
	if err != nil {
		return nil // gone again already; its removal follows
	}
	if m.Ignored(rel, fi.IsDir()) {
		return nil
	}
	out := []Event{{Path: rel, Op: op}}
	if op == Create && fi.IsDir() {
		w.addTree(rel, &out)
	}
	return out
}

// resync makes the watch set match the ignore rules again: unwatch what became ignored, watch what no longer is.
func (w *Watcher) resync() {
	w.mu.Lock()
	m := w.matcher
	var drop []string
	for d := range w.dirs {
		if d != "" && m.Ignored(d, true) {
			drop = append(drop, d)
		}
	}
	w.mu.Unlock()
	for _, d := range drop {
		w.removeTree(d)
	}
	w.addTree("", nil)
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
