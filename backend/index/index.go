// Package index keeps the long-lived index of the project a window or MCP server has open: the file lists and
// file text held in memory, a trigram index on disk that narrows each search to the files that can match, and
// the watcher that keeps both correct. Searching itself is package search; an Index is one of its Sources.
//
// Guarantees: a search through an Index returns exactly what a search of the disk would (a change the watcher
// or Rooted's own writes report is never answered from what was held before it); background work (the trigram
// build) waits for searches in progress. A trigram index kept from an earlier opening serves searches at once, before
// the watcher is up and while it is checked against the tree, with the same guarantee: a search issued before the
// check ends finds a file changed, created or removed while the project was closed as it is now (check.go says how).
// Not guaranteed: when the watcher cannot cover the tree (the system's watch limit), the Index reads the disk as a
// one-shot search does.
package index

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/rooted-dev/rooted/backend/ignore"
	"github.com/rooted-dev/rooted/backend/sched"
	"github.com/rooted-dev/rooted/backend/search"
	"github.com/rooted-dev/rooted/backend/walk"
	"github.com/rooted-dev/rooted/backend/watch"
)

// Index is a search.Source that keeps a project's file lists and file contents in memory, so the repeated searches an
// agent makes read nothing from disk. A watcher keeps it correct: a changed file's content is dropped as soon as
// the kernel reports the change, a created, removed or renamed path drops the file lists, and a change that
// raced with a read is never cached (an epoch counter, bumped on every change, guards each store). Writes made
// through Rooted's own tools call Invalidate at once. When the watcher cannot cover the tree (the system's watch
// limit), the index reads from disk like search.DiskSource.
//
// Memory: the content of text files up to maxCachedFile, at most Budget bytes in all (what is read past it pushes
// out files read before), plus one small entry per file. Past the budget, a trigram index on disk (narrow.go)
// narrows each search to the files that can match, so a project much larger than the budget still answers
// repeated searches without reading every file. On a project of more than fillLimit times the budget of text, the
// cache holds, in part of the budget, the files that narrowed searches keep reading, and the large ones among them
// a filter that rules them out of most searches unread (grams.go).
type Index struct {
	root    *os.Root
	watcher *watch.Watcher
	disk    search.DiskSource

	mu      sync.RWMutex
	epoch   uint64
	lists   map[listKey]*fileList
	content map[string][]byte // nil value: binary or too large, not worth reading again until it changes
	bytes   int64

	hooks Options

	tri    *narrower
	dirs   dirCache // folders open for reading files named by a list in memory
	budget int64    // bytes of file content kept in memory
	// perFile: narrow by asking each file of the walk its verdict, never by the candidate walk (a benchmark's
	// "before").
	perFile bool
	// noFill: the build does not fill the text cache, the project's files being more than fillLimit times the
	// budget (listIdentities). The cache then holds what narrowed searches keep reading, in hotShare of the budget.
	noFill atomic.Bool
	// reads counts, up to 2, the narrowed searches that named each file a candidate (WalkCandidates): a file read
	// by a second one is kept, as searches keep reading it. At most hotFiles names; past that the counts start over.
	reads map[string]uint8
	// hotCandidates: a search with more candidates than this is broad, and its files are not counted.
	hotCandidates int
	// grams: the four-byte filters of large files searches keep reading (grams.go), gramBytes in all.
	grams     map[string]gramFilter
	gramBytes int64
}

// A file that narrowed searches keep reading is worth keeping even where the build does not fill the cache: on
// the 460k-file corpus a rare literal's 59 MB of candidates are mostly the same two large files of each copy
// (an API manifest and a bundled package), which most Go API names' searches read, and reading them is most of a
// search's CPU (system calls copying from the page cache). Files are kept on their second narrowed search, so a
// search made once copies nothing, and only from searches of few candidates, so a broad one fills nothing.
const (
	hotCandidates = 4096
	hotFiles      = 1 << 16
	// hotShare: the part of the budget a project past fillLimit keeps for those files (at 460k files the process
	// passed 300 MiB with all of the budget filled by the build).
	hotShare = 2
)

// fillLimit: past this many times the budget of text, the build leaves the text cache alone. It would hold a few
// percent of the project, so of any search's candidates, for all of the budget in resident memory: at 460k files
// (4.8 GiB) the process passed 300 MiB with the cache full, 128 MiB of it.
const fillLimit = 16

// DefaultBudget is how much file content an index keeps in memory unless told otherwise: the whole text of a
// project the size of the Go tree (104 MiB of text) and a working set of a larger one.
const DefaultBudget = 128 << 20

// SetBudget changes how much file content the index keeps in memory (0: DefaultBudget).
func (x *Index) SetBudget(bytes int64) {
	if bytes <= 0 {
		bytes = DefaultBudget
	}
	x.mu.Lock()
	x.budget = bytes
	x.evictLocked(0)
	x.mu.Unlock()
}

// evictLocked drops cached files until need more bytes fit in the budget; which go is the map's random order,
// which keeps no bookkeeping per read. x.mu is held.
func (x *Index) evictLocked(need int64) {
	for p, b := range x.content {
		if x.bytes+need <= x.budget {
			return
		}
		x.bytes -= int64(len(b))
		delete(x.content, p)
	}
}

// Memory reports the file content held in memory (and the filters of large files, grams.go) and the budget, and
// the trigram index's state.
func (x *Index) Memory() (cached, budget int64, trigrams NarrowStats) {
	x.mu.RLock()
	cached, budget = x.bytes+x.gramBytes, x.budget
	x.mu.RUnlock()
	return cached, budget, x.tri.Stats()
}

// Options let other parts of a long-lived face follow the index's watcher (Change and Batch run on watcher
// goroutines and must not block), and say where the trigram index lives.
type Options struct {
	// Change hears of every change as soon as the kernel reports it, before debouncing (caches that must drop
	// what changed at once: snapshots, the stale-file check).
	Change func(watch.Event)
	// Batch hears of debounced batches (what a UI shows), with the watcher's coverage at the time.
	Batch func([]watch.Event, watch.Status)
	// CacheDir holds the trigram index, under rooted/search (default: the user's cache directory).
	CacheDir string
	// Lane is the workspace's share of the process's scheduler: the build, the merge and the watcher's first walk
	// wait for the searches of this lane only. nil: for every search of the process.
	Lane *sched.Lane

	// checkEvery and checked, for tests: how many files the check of a saved index tells searches of at a time,
	// and a hook told after each (check.go).
	checkEvery int
	checked    func(files int)
	// tri is the trigram index, already loaded (Indexes: a saved one serves searches while the index starts).
	tri *narrower
}

type listKey struct{ hidden, ignored bool }

const maxCachedFile = 4 << 20

// NewIndex indexes the project at root (absolute path abs) and starts watching it; hooks follow its watcher.
// Close releases the watcher.
func NewIndex(root *os.Root, abs string, hooks Options) (*Index, error) {
	tri := hooks.tri
	if tri == nil {
		tri = newNarrower(root, abs, hooks.CacheDir)
	}
	x := &Index{
		root: root, disk: search.DiskSource{Root: root}, lists: map[listKey]*fileList{}, content: map[string][]byte{}, hooks: hooks,
		tri: tri, budget: DefaultBudget, hotCandidates: hotCandidates,
	}
	x.tri.yielder.Lane = hooks.Lane
	if hooks.checkEvery > 0 {
		x.tri.checkEvery = hooks.checkEvery
	}
	x.tri.checked = hooks.checked
	// The watcher's first walk of the tree waits while a search runs, as the trigram build does: until the index
	// has started, searches read the disk, and the walk would take half the machine from them.
	w, err := watch.New(root, abs, watch.Options{Notify: x.changed, Yield: x.tri.yield})
	if err != nil {
		x.tri.close()
		return nil, err
	}
	x.watcher = w
	x.tri.startCheck(x.listEach)
	go func() {
		// The index itself uses Notify; batches are for whoever shows the tree. The channel closes with the watcher.
		for batch := range w.Events() {
			if hooks.Batch != nil {
				hooks.Batch(batch, w.Status())
			}
		}
	}()
	return x, nil
}

// Close stops watching; the trigram index stays on disk for the next opening of the project (saved.go).
func (x *Index) Close() error {
	x.dirs.clear()
	x.tri.close()
	return x.watcher.Close()
}

// Status reports the watcher's coverage.
func (x *Index) Status() watch.Status { return x.watcher.Status() }

// Invalidate drops what the index holds for rel (a slash path), as after a write by Rooted itself.
func (x *Index) Invalidate(rel string, structural bool) {
	op := watch.Write
	if structural {
		op = watch.Create
	}
	x.changed(watch.Event{Path: rel, Op: op})
}

func (x *Index) changed(e watch.Event) {
	if x.hooks.Change != nil {
		x.hooks.Change(e)
	}
	x.tri.changed(e.Path, e.Op&watch.Rescan != 0)
	x.mu.Lock()
	defer x.mu.Unlock()
	x.epoch++
	if e.Op&(watch.Create|watch.Remove|watch.Rename|watch.Rescan) != 0 {
		x.adjustLists(e)
		// A folder renamed, removed or replaced: opened again by its path. Only the folders at or under the path
		// are let go of (emptying the cache on every create, as an atomic write is, closed a thousand folders an
		// edit and left the next search to open them again).
		x.dirs.drop(e.Path, e.Op&watch.Rescan != 0)
	}
	under := e.Op&(watch.Remove|watch.Rename|watch.Rescan) != 0
	x.bytes -= dropUnder(x.content, e.Path, under, func(b []byte) int64 { return int64(len(b)) })
	x.gramBytes -= dropUnder(x.grams, e.Path, under, gramFilter.size)
	if e.Op&watch.Rescan != 0 {
		// The ignore rules may have changed: a file searches kept reading may be ignored now, and the watcher does
		// not report an ignored file's changes. Its reads count again, and only by searches of unignored files.
		clear(x.reads)
	}
}

// dropUnder deletes rel from m and, when under, every path under it (all of them when rel is ""), and returns the
// bytes they held, by size: a change drops the text and the filters kept of the files it touched.
func dropUnder[V any](m map[string]V, rel string, under bool, size func(V) int64) (freed int64) {
	if v, ok := m[rel]; ok {
		freed += size(v)
		delete(m, rel)
	}
	if !under {
		return freed
	}
	prefix := rel + "/"
	for p, v := range m {
		if rel == "" || strings.HasPrefix(p, prefix) {
			freed += size(v)
			delete(m, p)
		}
	}
	return freed
}

func (x *Index) live() bool { return !x.watcher.Status().Degraded }

// Walk yields the files under dir from the cached list when there is one, else walks the disk and keeps the list.
func (x *Index) Walk(ctx context.Context, dir string, opt search.WalkOptions, emit func(search.File) bool) error {
	// A shallow listing is one directory read: not worth a cache. A search that reads every file is faster from the
	// disk: on a 92k-file tree, full counts before the trigram index was in took 1.3-1.6 s from the list, against
	// 0.9-1.0 s walking the disk, since the list's files are read from folders opened again by path.
	if !x.live() || opt.Stat || opt.Shallow || opt.ReadAll {
		return x.disk.Walk(ctx, dir, opt, emit)
	}
	dir = strings.Trim(filepath.ToSlash(filepath.Clean(dir)), "/")
	if dir == "." {
		dir = ""
	}
	key := listKey{opt.IncludeHidden, opt.IncludeIgnored}
	// A directory named explicitly is searched even if ignored or hidden; the cached lists leave those out.
	if explicit(x.root, dir, opt.IncludeHidden, opt.IncludeIgnored) {
		return x.disk.Walk(ctx, dir, opt, emit)
	}
	x.mu.RLock()
	list, ok := x.lists[key]
	epoch := x.epoch
	x.mu.RUnlock()
	if !ok {
		// Walk the whole tree once for the list, emitting what falls under dir as it goes.
		var all []string
		full := opt
		full.Match = nil
		stopped := false
		err := x.disk.Walk(ctx, "", full, func(f search.File) bool {
			all = append(all, f.Rel)
			if stopped || !under(f.Rel, dir) || (opt.Match != nil && !opt.Match(f.Rel)) {
				f.Release()
				return true
			}
			if !emit(f) {
				stopped = true // keep walking for the list; the caller has what it wants
			}
			return true
		})
		if err != nil {
			return err
		}
		x.mu.Lock()
		if x.epoch == epoch {
			x.lists[key] = newFileList(all)
		}
		x.mu.Unlock()
		if dir != "" && !exists(x.root, dir) {
			return x.disk.Walk(ctx, dir, opt, emit) // for its error (not found, not a directory)
		}
		return nil
	}
	if dir != "" {
		if err := checkDir(x.root, dir); err != nil {
			return err
		}
	}
	for i, rel := range list.names {
		if i&1023 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		if !under(rel, dir) || (opt.Match != nil && !opt.Match(rel)) {
			continue
		}
		if !emit(search.File{Entry: walk.Entry{Rel: rel, Name: list.name(i)}, Ordinal: i + 1}) {
			return nil
		}
	}
	return nil
}

// fileList is a list of the files a walk yields, kept until the tree's shape changes, and what the trigram index
// holds of each (by its place in the list), so a narrowed search of a big project looks no name up in a map.
type fileList struct {
	names []string // slash paths, in walk order
	// base is where each name's last element starts (noBase: past what a uint16 holds). Finding it as a search
	// walks the list read every name's bytes, scattered over the heap: with it, a narrowed search of a 92k-file
	// project reads none but the candidates' (8.0 ms a rare literal's count, against 14.2 ms).
	base []uint16

	// sorted: the names are in a sorted walk's path order, as they always should be; the candidate walk finds a
	// folder's files and a changed file by binary search, and declines on a list that is not.
	sorted   bool
	adjusted int // changes made to it since it was walked (adjustLists)

	mu sync.Mutex
	t  *listTables // what the list knows of the latest trigram build (candidates.go); nil: none yet
}

const noBase = 1<<16 - 1

func newFileList(names []string) *fileList {
	l := &fileList{names: names, base: make([]uint16, len(names)), sorted: inPathOrder(names)}
	for i, rel := range names {
		l.base[i] = uint16(min(strings.LastIndexByte(rel, '/')+1, noBase))
	}
	return l
}

// name is the last element of names[i].
func (l *fileList) name(i int) string {
	rel := l.names[i]
	if b := l.base[i]; b != noBase {
		return rel[b:]
	}
	return rel[strings.LastIndexByte(rel, '/')+1:]
}

// Content returns cached bytes, or reads the file. A search does not copy what it reads into the cache, but for
// the files narrowed searches keep reading (countReads): filling it is otherwise the trigram build's work, in the
// background (see store), so a search costs what a search of the disk does. Copying every file a search read into
// memory the process had never touched made a full count after a few limited searches twice as slow as the same
// count of the disk (BenchmarkCountAfterLimited). A binary file is remembered, so later searches skip it unread.
//
// Text read through a link is never kept: the watcher reports a change by the path of the file changed, the
// link's target, so what the link's path kept would go stale.
//
// A large file is read into one of search's kept buffers, not mapped (see search's readPooled): on a 92k-file
// project a rare literal's narrowed count took 21.5 ms in process with its large candidates mapped, 11.5 ms read.
func (x *Index) Content(f search.File) ([]byte, func(), error) {
	x.mu.RLock()
	b, ok := x.content[f.Rel]
	epoch := x.epoch
	hot := !ok && x.reads[f.Rel] >= 2
	x.mu.RUnlock()
	hot = hot && !x.tri.busy()
	if ok {
		if b == nil {
			return nil, func() {}, search.ErrNotSearchable
		}
		return b, func() {}, nil
	}
	var data []byte
	var release func()
	var err error
	viaLink := f.Type&fs.ModeSymlink != 0
	if f.Dir != nil {
		data, release, err = x.disk.Content(f)
	} else {
		data, release, viaLink, err = x.readFollowing(f.Rel)
	}
	hot = hot && !viaLink
	binary := errors.Is(err, search.ErrBinary) // a large binary file, not read past its first bytes
	if err != nil && !binary {
		return nil, release, err
	}
	switch {
	case !x.live():
	case binary || search.IsBinary(data):
		x.store(f.Rel, nil, epoch)
	case hot && len(data) >= gramMin && !x.haveGrams(f.Rel):
		// A large file gets its filter first, and its text once a search reads it past the filter: most that
		// searches keep reading are candidates of most searches without holding what they look for.
		x.keepGrams(f.Rel, data, epoch)
	case hot:
		x.store(f.Rel, data, epoch)
	}
	return data, release, err
}

// countReads counts a narrowed search's reads of its candidates, the places in l of the files the trigram index
// named (not those it does not cover yet): Content keeps a file that a second one reads.
func (x *Index) countReads(l *fileList, ords []int32) {
	if len(ords) == 0 || len(ords) > x.hotCandidates {
		return
	}
	x.mu.Lock()
	if x.reads == nil || len(x.reads)+len(ords) > hotFiles {
		x.reads = make(map[string]uint8, len(ords))
	}
	for _, o := range ords {
		if rel := l.names[o]; x.reads[rel] < 2 {
			x.reads[rel]++
		}
	}
	x.mu.Unlock()
}

// store keeps a copy of a file's text (nil: the file is not searchable) unless the file changed since epoch, the
// budget is spent, or the file is too large to be worth it.
func (x *Index) store(rel string, data []byte, epoch uint64) {
	if len(data) > maxCachedFile {
		return
	}
	x.mu.RLock()
	limit := x.textLimitLocked()
	full := x.bytes+int64(len(data)) > limit
	x.mu.RUnlock()
	if full && data != nil {
		// The budget is spent: a project bigger than it is searched from disk (its trigram index narrows the
		// reads), and what is cached stays, rather than every read copying a file in and another out.
		return
	}
	var keep []byte
	if data != nil {
		keep = make([]byte, len(data))
		copy(keep, data)
	}
	x.mu.Lock()
	if x.epoch == epoch && int64(len(keep)) <= x.budget/4 && (keep == nil || x.bytes+int64(len(keep)) <= x.textLimitLocked()) {
		if old, ok := x.content[rel]; ok {
			x.bytes -= int64(len(old))
		}
		x.evictLocked(int64(len(keep)))
		x.content[rel] = keep
		x.bytes += int64(len(keep))
	}
	x.mu.Unlock()
}

// textLimitLocked is how many bytes of text the cache may hold: the budget, or hotShare of it where the build
// does not fill the cache. x.mu is held.
func (x *Index) textLimitLocked() int64 {
	if x.noFill.Load() {
		return x.budget / hotShare
	}
	return x.budget
}

// readByPath reads a file named by its path from the root: by its name from its folder, opened once for all the
// files of a list in the same folder (resolving every file's path from the root, component by component, made a
// search from the lists twice as slow as one walking the disk), else through the root, which follows a link
// inside it.
func (x *Index) readByPath(rel string) ([]byte, func(), error) {
	data, release, _, err := x.readFollowing(rel)
	return data, release, err
}

// readFollowing is readByPath, saying whether the file was read through the root, as a link is: its text is not
// to be kept under rel.
func (x *Index) readFollowing(rel string) (data []byte, release func(), viaLink bool, err error) {
	if d := x.dirs.get(x.root, path.Dir(rel)); d != nil {
		data, release, err := search.ReadIn(d, path.Base(rel))
		d.Release()
		var pe *fs.PathError
		if !errors.As(err, &pe) || pe.Op != "open" {
			return data, release, false, err
		}
		// Not openable by its name (a link, or gone): through the root, for its content or its error.
	}
	data, release, err = search.ReadPath(x.root, rel)
	return data, release, true, err
}

// explicit reports a folder named by a search that the lists in memory leave out (hidden or ignored, and the
// search does not include those): named explicitly, it is searched in full, from the disk.
func explicit(root *os.Root, dir string, hidden, ignored bool) bool {
	if dir == "" {
		return false
	}
	if !hidden && (strings.HasPrefix(dir, ".") || strings.Contains(dir, "/.")) {
		return true
	}
	return !ignored && ignore.New(root).Ignored(dir, true)
}

func under(rel, dir string) bool {
	return dir == "" || rel == dir || strings.HasPrefix(rel, dir+"/")
}

func exists(root *os.Root, dir string) bool {
	fi, err := root.Stat(filepath.FromSlash(dir))
	return err == nil && fi.IsDir()
}

func checkDir(root *os.Root, dir string) error {
	fi, err := root.Stat(filepath.FromSlash(dir))
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return &os.PathError{Op: "search", Path: dir, Err: walk.ErrNotDir}
	}
	return nil
}

// Narrow returns a filter for the files that can match opt, from the trigram index; nil when it cannot narrow (not
// built yet, which starts a build, or not watching the whole tree). A file walked from a list in memory is looked up
// by its place in the list (an array of numbers the list keeps per build), any other by its name.
func (x *Index) Narrow(ctx context.Context, opt search.Options) func(search.File) search.Verdict {
	if !x.live() {
		return nil
	}
	c := x.tri.keep(opt)
	if c == nil {
		x.startBuild()
		return nil
	}
	x.mu.RLock()
	l := x.lists[listKey{opt.IncludeHidden, opt.IncludeIgnored}]
	x.mu.RUnlock()
	var nums []int32
	if l != nil {
		nums = l.tables(c).nums
	}
	// number is the file's number in the index, looked up by its place in the list when the walk comes from it: the
	// walk may come from a list made since (the tree changed), and the name at that place says which. A file of this
	// very list is its own string, which compares at once.
	number := func(f search.File) (int32, bool) {
		if i := f.Ordinal - 1; l != nil && i >= 0 && i < len(l.names) && l.names[i] == f.Rel {
			return nums[i], true
		}
		return 0, false
	}
	if c.check == nil {
		return func(f search.File) search.Verdict {
			if num, ok := number(f); ok {
				return c.verdict(num, f.Rel)
			}
			return c.byName(f.Rel)
		}
	}
	// A saved index still being checked (check.go): a file the check has not reached is stat'ed here.
	dirs := func(dir string) *walk.Dir { return x.dirs.get(x.root, dir) }
	return func(f search.File) search.Verdict {
		now := func() (fileID, bool) { return identityNow(f, dirs) }
		if num, ok := number(f); ok {
			return c.recheck(c.verdict(num, f.Rel), num, f.Rel, now)
		}
		return c.byNameNow(f, now)
	}
}

// startBuild builds the trigram index in the background, unless one is built, being built, or not possible.
func (x *Index) startBuild() {
	if x.live() {
		x.tri.build(x.listIdentities, x.searchable)
	}
}

// searchable reads a file for the trigram index: text files only, as a search reads them. The bytes are the read
// buffer's, good until release is called.
//
// The build reads every file once, so it also fills the text cache as it goes, while the budget allows: what a
// search would otherwise read again from disk is read once, in the background.
func (x *Index) searchable(rel string) ([]byte, func(), error) {
	x.mu.RLock()
	epoch := x.epoch
	x.mu.RUnlock()
	data, release, viaLink, err := x.readFollowing(rel)
	if err != nil {
		return nil, release, err
	}
	if search.IsBinary(data) {
		release()
		if x.live() {
			x.store(rel, nil, epoch)
		}
		return nil, func() {}, search.ErrBinary
	}
	if x.live() && !x.noFill.Load() && !viaLink {
		x.store(rel, data, epoch)
	}
	return data, release, nil
}

// CommandRan is told that a command ran in the project and may have changed anything. The lists and cached text
// are dropped; the trigram index stays in use, since the command has ended and the watcher reports each file it
// wrote (they become searched directly), but not for the moment those reports take to arrive.
func (x *Index) CommandRan() {
	x.dirs.clear()
	x.mu.Lock()
	x.epoch++
	clear(x.lists)
	clear(x.content)
	x.bytes = 0
	clear(x.grams)
	x.gramBytes = 0
	x.mu.Unlock()
	x.tri.pause(pauseAfterCommand)
}
