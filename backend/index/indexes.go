package index

import (
	"cmp"
	"context"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync"

	"github.com/rooted-dev/rooted/backend/search"
	"github.com/rooted-dev/rooted/backend/watch"
)

// Indexes holds the Index of the project a session has open, replacing it when the session opens another root.
// A long-lived face (the window, MCP) keeps one; a one-shot CLI call does without and reads the disk.
type Indexes struct {
	// OnChange, when set before the first Source, hears of every change an index sees, with its root.
	OnChange func(root *os.Root, e watch.Event)
	// OnBatch, when set before the first Source, hears of every debounced batch of changes, with the watcher's
	// coverage at the time.
	OnBatch func(root *os.Root, batch []watch.Event, st watch.Status)
	// LimitMemory sets the process's soft memory limit from the budget (budget + memoryHeadroom), for a
	// long-lived process whose search is its main use of memory: a scan of a big project reads every file once,
	// and without a limit the runtime holds that freed heap for a while. A GOMEMLIMIT in the environment wins.
	LimitMemory bool

	mu       sync.Mutex
	root     *os.Root
	idx      *Index
	starting chan struct{} // closed once the index of root has started, or failed to
	budget   int64         // for the next index; 0: DefaultBudget
	saved    bool          // root's trigram index was kept from an earlier opening: searches wait for the start
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
		s.root, s.idx = root, nil
		var hooks Options
		if s.OnChange != nil {
			hooks.Change = func(e watch.Event) { s.OnChange(root, e) }
		}
		if s.OnBatch != nil {
			hooks.Batch = func(b []watch.Event, st watch.Status) { s.OnBatch(root, b, st) }
		}
		started := make(chan struct{})
		s.starting = started
		dir := indexDir(abs, "")
		_, err := os.Stat(filepath.Join(dir, manifestName))
		s.saved = dir != "" && err == nil
		go func() {
			defer close(started)
			idx, err := NewIndex(root, abs, hooks)
			if err != nil {
				return
			}
			s.mu.Lock()
			defer s.mu.Unlock()
			if s.root != root || s.starting != started { // closed or replaced meanwhile
				idx.Close()
				return
			}
			s.idx = idx
			if s.budget > 0 {
				idx.SetBudget(s.budget)
			}
		}()
	}
	if s.idx == nil {
		if s.starting != nil && s.saved {
			// An index kept from an earlier opening is usable a few seconds after the watcher is up (a stat of
			// each file), where a search of the disk reads every file: the search waits for it.
			return startingSource{s: s, root: root, started: s.starting}
		}
		return search.DiskSource{Root: root}
	}
	return s.idx
}

// startingSource is the source of a search that waits for the index being started: every call waits until it has
// started, then asks it, or the disk when it failed to start.
type startingSource struct {
	s       *Indexes
	root    *os.Root
	started chan struct{}
}

func (w startingSource) source() search.Source {
	select {
	case <-w.started:
	default:
		back := search.Aside() // the watcher's first walk yields to searches: not to this one, which waits for it
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
	if nw, ok := w.source().(search.Narrower); ok {
		return nw.Narrow(ctx, opt)
	}
	return nil
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

// Close stops the current index.
func (s *Indexes) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.idx != nil {
		s.idx.Close()
	}
	s.idx, s.root, s.starting = nil, nil, nil
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
	if s.LimitMemory && os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(cmp.Or(max(bytes, 0), DefaultBudget) + memoryHeadroom)
	}
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
