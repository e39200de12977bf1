package index

import (
	"cmp"
	"context"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync"

	"github.com/rooted-dev/rooted/backend/sched"
	"github.com/rooted-dev/rooted/backend/search"
	"github.com/rooted-dev/rooted/backend/watch"
)

// Indexes holds the Index of the project a session has open, replacing it when the session opens another root.
// Each open workspace (backend/workspace) keeps one of its own, so one project's index never closes another's; a
// one-shot CLI call does without and reads the disk.
type Indexes struct {
	// OnChange, when set before the first Source, hears of every change an index sees, with its root.
	OnChange func(root *os.Root, e watch.Event)
	// OnBatch, when set before the first Source, hears of every debounced batch of changes, with the watcher's
	// coverage at the time.
	OnBatch func(root *os.Root, batch []watch.Event, st watch.Status)
	// Limit, when set, is the process's soft memory limit this index's budget counts toward (with every other
	// live index sharing it), for a long-lived process whose search is its main use of memory: a scan of a big
	// project reads every file once, and without a limit the runtime holds that freed heap for a while.
	Limit *MemoryLimit
	// Lane, when set before the first Source, is the workspace's share of the process's scheduler: the index's
	// background work waits for this lane's searches, not another workspace's.
	Lane *sched.Lane

	mu       sync.Mutex
	root     *os.Root
	idx      *Index
	starting chan struct{} // closed once the index of root has started, or failed to
	budget   int64         // for the next index; 0: DefaultBudget
	saved    bool          // root's trigram index was kept from an earlier opening: searches wait for the start
	loaded   chan struct{} // closed once that kept index is loaded, or found unusable
	early    *narrower     // the kept index, loaded, serving searches until the index has started (savedSource)
	asked    bool          // a search asked to narrow before the index had started: it builds once started
	hold     chan struct{} // tests: when set before the first Source, the index starts once it is closed
}

// Source returns the index for root (absolute path abs), starting it on first use. Until it has started (the
// watcher walks the whole tree first: seconds on a large project) and if it cannot start (no watcher), it returns
// the disk: a search never waits for the index.
func (s *Indexes) Source(root *os.Root, abs string) search.Source {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.root != root {
		if s.idx != nil {
			s.idx.Close()
		}
		s.root, s.idx, s.early, s.asked = root, nil, nil, false
		hooks := Options{Lane: s.Lane}
		if s.OnChange != nil {
			hooks.Change = func(e watch.Event) { s.OnChange(root, e) }
		}
		if s.OnBatch != nil {
			hooks.Batch = func(b []watch.Event, st watch.Status) { s.OnBatch(root, b, st) }
		}
		started, loaded := make(chan struct{}), make(chan struct{})
		s.starting, s.loaded = started, loaded
		dir := indexDir(abs, "")
		_, err := os.Stat(filepath.Join(dir, manifestName))
		saved := dir != "" && err == nil
		s.saved = saved
		go func() {
			defer close(started)
			if saved {
				// Loaded first (the manifest and the segments' tables), to serve searches while the watcher's
				// first walk runs.
				hooks.tri = newNarrower(root, abs, "")
				s.mu.Lock()
				if s.root == root && s.starting == started {
					s.early = hooks.tri
				}
				s.mu.Unlock()
			}
			close(loaded)
			if s.hold != nil {
				<-s.hold
			}
			idx, err := NewIndex(root, abs, hooks)
			s.mu.Lock()
			defer s.mu.Unlock()
			current := s.root == root && s.starting == started
			if current {
				s.early = nil
			}
			if err != nil {
				return
			}
			if !current { // closed or replaced meanwhile
				idx.Close()
				return
			}
			s.idx = idx
			if s.budget > 0 {
				idx.SetBudget(s.budget)
			}
			if s.asked {
				// A search made while the watcher's first walk ran read the disk and could not ask for a build:
				// it starts now, not at the next search (on a 460k-file project, the first search ended before
				// the walk and the build began with the second, 20 s later in the monorepo bench).
				idx.startBuild()
			}
		}()
	}
	if s.idx == nil {
		if s.starting != nil && s.saved {
			// An index kept from an earlier opening serves searches at once (savedSource, then the index while it
			// checks the tree), where a search of the disk reads every file.
			return startingSource{s: s, root: root, started: s.starting, loaded: s.loaded}
		}
		return startingDisk{DiskSource: search.DiskSource{Root: root}, s: s, root: root}
	}
	return s.idx
}

// startingDisk is the source of a search made while the index of a project with no kept index is starting: the
// disk, which notes that a search wanted narrowing, so the index builds its trigrams as soon as it has started.
type startingDisk struct {
	search.DiskSource
	s    *Indexes
	root *os.Root
}

func (d startingDisk) Narrow(ctx context.Context, opt search.Options) func(search.File) search.Verdict {
	d.s.ask(d.root)
	return nil
}

// ask notes that a search of root could not be narrowed while its index was starting: the index builds its
// trigrams once started (at once, if it has started meanwhile).
func (s *Indexes) ask(root *os.Root) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.root != root:
	case s.idx != nil:
		s.idx.startBuild()
	default:
		s.asked = true
	}
}

// startingSource is the source of a search made while the index of a project whose trigram index was kept from an
// earlier opening is starting: each call asks the kept index (savedSource) until the index has started, then the
// index, or the disk when it failed to start.
type startingSource struct {
	s       *Indexes
	root    *os.Root
	started chan struct{}
	loaded  chan struct{}
}

func (w startingSource) source() search.Source {
	select {
	case <-w.started:
	default:
		<-w.loaded // reading the manifest: a fraction of a second, against the seconds of the watcher's walk
		w.s.mu.Lock()
		early := w.s.early
		if w.s.root != w.root {
			early = nil
		}
		w.s.mu.Unlock()
		if early != nil {
			return savedSource{DiskSource: search.DiskSource{Root: w.root}, tri: early}
		}
		back := w.s.aside() // the watcher's first walk yields to searches: not to this one, which waits for it
		<-w.started
		back()
	}
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	if w.s.idx != nil && w.s.root == w.root {
		return w.s.idx
	}
	return search.DiskSource{Root: w.root}
}

func (w startingSource) Walk(ctx context.Context, dir string, opt search.WalkOptions, emit func(search.File) bool) error {
	return w.source().Walk(ctx, dir, opt, emit)
}

func (w startingSource) Content(f search.File) ([]byte, func(), error) { return w.source().Content(f) }

func (w startingSource) Narrow(ctx context.Context, opt search.Options) func(search.File) search.Verdict {
	src := w.source()
	var keep func(search.File) search.Verdict
	if nw, ok := src.(search.Narrower); ok {
		keep = nw.Narrow(ctx, opt)
	}
	if _, started := src.(*Index); keep == nil && !started {
		// A kept index that could not be used (another layout, a segment gone): built once the index has started.
		w.s.ask(w.root)
	}
	return keep
}

func (w startingSource) WalkCandidates(ctx context.Context, dir string, opt search.Options, emit func(search.File, int) bool) (int, bool, error) {
	if cw, ok := w.source().(search.CandidateWalker); ok {
		return cw.WalkCandidates(ctx, dir, opt, emit)
	}
	return 0, false, nil
}

// wait waits until the index of root has started or failed to (nothing to wait for when root is not the root
// of the index being kept).
func (s *Indexes) wait(root *os.Root) {
	s.mu.Lock()
	started, same := s.starting, s.root == root
	s.mu.Unlock()
	if same && started != nil {
		<-started
	}
}

// Invalidate tells the index of root that rel changed through Rooted itself, so the next search sees it.
func (s *Indexes) Invalidate(root *os.Root, rel string, created bool) {
	s.mu.Lock()
	idx := s.idx
	same := s.root == root
	s.mu.Unlock()
	if idx != nil && same {
		idx.Invalidate(rel, created)
	}
}

// InvalidateAll drops everything the index of root holds.
func (s *Indexes) InvalidateAll(root *os.Root) {
	s.mu.Lock()
	idx := s.idx
	same := s.root == root
	s.mu.Unlock()
	if idx != nil && same {
		idx.CommandRan()
	}
}

// Live reports whether root's index is watching its whole tree (no watch limit reached), once it has started.
func (s *Indexes) Live(root *os.Root) bool {
	s.wait(root)
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.root == root && s.idx != nil && !s.idx.Status().Degraded
}

// Status reports the current index's watcher coverage; ok is false when there is none.
func (s *Indexes) Status() (watch.Status, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.idx == nil {
		return watch.Status{}, false
	}
	return s.idx.Status(), true
}

// Close stops the current index, and its budget no longer counts toward the memory limit.
func (s *Indexes) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.idx != nil {
		s.idx.Close()
	}
	s.idx, s.root, s.starting, s.early = nil, nil, nil, nil
	s.Limit.drop(s)
}

// MemoryLimit sets the process's soft memory limit (debug.SetMemoryLimit) from the budgets of the live indexes
// that share it: the sum of each one's budget plus memoryHeadroom, so a second project open beside the first
// raises the limit rather than squeezing the first one's cache into its own budget. A GOMEMLIMIT in the
// environment wins. One per process, shared by its workspaces; the zero value is ready.
type MemoryLimit struct {
	mu       sync.Mutex
	budgets  map[*Indexes]int64
	setLimit func(int64) int64 // debug.SetMemoryLimit; tests put their own
}

// Limit is the limit set now from the live budgets; 0 when none is live (the limit is then left as it was).
func (m *MemoryLimit) Limit() int64 {
	if m == nil {
		return 0
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.sumLocked()
}

func (m *MemoryLimit) sumLocked() int64 {
	var sum int64
	for _, b := range m.budgets {
		sum += cmp.Or(max(b, 0), DefaultBudget) + memoryHeadroom
	}
	return sum
}

func (m *MemoryLimit) set(owner *Indexes, bytes int64) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.budgets == nil {
		m.budgets = map[*Indexes]int64{}
	}
	m.budgets[owner] = bytes
	m.applyLocked()
}

func (m *MemoryLimit) drop(owner *Indexes) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.budgets[owner]; !ok {
		return
	}
	delete(m.budgets, owner)
	m.applyLocked()
}

// applyLocked sets the limit from the live budgets; with none live it is left as it was, since nothing of the
// process's own then needs room, and lifting it would only matter for memory no index holds.
func (m *MemoryLimit) applyLocked() {
	sum := m.sumLocked()
	if sum == 0 || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	set := m.setLimit
	if set == nil {
		set = debug.SetMemoryLimit
	}
	set(sum)
}

// memoryHeadroom is what a long-lived process needs besides search's file text: the file lists, the watcher, the
// trigram index's names and fences, a trigram build's pairs, buffers of searches in flight. Measured on a 92k-file
// project (BenchmarkBuildMemory): 32 MiB of live heap besides the text after the build, 68 MiB at its peak; the
// rest is room for garbage between collections, so the process stays under 250 MiB resident with the default budget.
const memoryHeadroom = 104 << 20

// SetBudget sets how much file content root's index keeps in memory (0: DefaultBudget); it applies now and to an
// index started later for root.
func (s *Indexes) SetBudget(root *os.Root, bytes int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.budget = bytes
	s.Limit.set(s, bytes)
	if s.idx != nil && s.root == root {
		s.idx.SetBudget(bytes)
	}
}

// Memory reports root's index: the content held in memory, the budget, and the trigram index; ok is false when
// root has no index.
func (s *Indexes) Memory(root *os.Root) (cached, budget int64, trigrams NarrowStats, ok bool) {
	s.mu.Lock()
	idx, same := s.idx, s.root == root
	s.mu.Unlock()
	if idx == nil || !same {
		return 0, 0, NarrowStats{}, false
	}
	cached, budget, trigrams = idx.Memory()
	return cached, budget, trigrams, true
}

// aside stops counting the calling search, which waits for the index to start, among those the index's start
// yields to (its lane's, or the process's without one), until back is called.
func (s *Indexes) aside() (back func()) {
	if s.Lane != nil {
		return s.Lane.Aside()
	}
	return search.Aside()
}
