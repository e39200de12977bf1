// Package sched orders the work of the projects one process holds open: interactive work (an edit and the
// snapshot before it, a read, a search the agent waits for) goes first, and background work that reads the same
// files (the trigram index's build, the first snapshot of a project and the gits it runs) waits or pauses while it
// runs.
//
// Guarantees: each workspace has a Lane of its own, and foreground work in one lane never makes background work
// in another lane wait or pause, so an agent searching one project never stops another project's snapshot. Within
// a lane, background work waits for foreground work at most Yielder.MaxWait at a time, so it is never starved.
// Between lanes, short foreground work comes before searches: while a lane has Foreground work (an edit, a read:
// anything but a search), the searches of the other lanes pause at their steps (Lane.Pace, between files), for at
// most MaxPace at a time, after which they run unpaused for a tenth of it, so a search storm in one workspace
// costs another's edit almost nothing and a search is never starved. A lane's searches never pause for its own
// foreground work.
// The CPUs are shared fairly between the lanes with foreground work: parallel work (a search's workers) takes a
// Slot per step, and while n lanes have foreground work each may hold at most 1/n of the CPUs' slots (at least
// one), so a search storm in one workspace leaves the others' edits a CPU of their own; alone, a lane has them
// all.
// Every wait is woken when what it waits for changes (a search ending, a caller wanting the lock the background
// work holds, a slot freed, a deadline), by a channel or a sync.Cond: nothing polls.
//
// A Scheduler is a value: the process that holds workspaces makes one and hands each workspace a Lane; a nil
// *Lane is a lane of its own that nobody else shares (one-shot command-line use, tests), in which nothing waits.
package sched

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Scheduler hands out the lanes of one process's workspaces, and shares the CPUs between them.
type Scheduler struct {
	mu      sync.Mutex
	freed   *sync.Cond // broadcast when a slot is released or the lanes with foreground work change
	lanes   map[*Lane]struct{}
	cpus    int // slots in all
	active  int // lanes with foreground work
	waiting int // callers in Slot waiting for one

	urgent  Count         // lanes with Foreground work (not searches): the other lanes' searches pause for them
	maxPace time.Duration // MaxPace, shorter in tests
	settle  time.Duration // settlePace
}

// New returns a scheduler with no lanes, sharing GOMAXPROCS slots.
func New() *Scheduler { return NewWithCPUs(runtime.GOMAXPROCS(0)) }

// NewWithCPUs returns a scheduler sharing cpus slots (at least one).
func NewWithCPUs(cpus int) *Scheduler {
	s := &Scheduler{lanes: map[*Lane]struct{}{}, cpus: max(cpus, 1), maxPace: MaxPace, settle: settlePace}
	s.freed = sync.NewCond(&s.mu)
	return s
}

// share is how many slots a lane with foreground work may hold now. s.mu is held.
func (s *Scheduler) share() int { return max(1, s.cpus/max(1, s.active)) }

// Lane returns a new lane, for one workspace; name says which (for diagnostics). Close it when the workspace
// closes.
func (s *Scheduler) Lane(name string) *Lane {
	l := &Lane{s: s, name: name}
	s.mu.Lock()
	s.lanes[l] = struct{}{}
	s.mu.Unlock()
	return l
}

// Lanes returns the names of the open lanes with foreground work running in them, and how many lanes are open.
func (s *Scheduler) Lanes() (busy []string, open int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for l := range s.lanes {
		if l.Busy() {
			busy = append(busy, l.name)
		}
	}
	return busy, len(s.lanes)
}

// Lane is one workspace's share of a Scheduler: its foreground work, which its background work yields to, and
// the slots its parallel work holds.
type Lane struct {
	s      *Scheduler
	name   string
	fg     Count        // foreground work of every kind: the lane's background work yields to it
	urgent atomic.Int32 // Foreground work (not searches): other lanes' searches pause for it
	slots  int          // guarded by s.mu

	eager   atomic.Int64 // Unix nanoseconds: until then its searches do not pause (after a pause of MaxPace)
	pausing atomic.Int32 // searches in Pace, pausing
	pauses  atomic.Int64 // pauses begun, in all
}

// Name is the name the lane was given.
func (l *Lane) Name() string {
	if l == nil {
		return ""
	}
	return l.name
}

// Foreground counts as foreground work of the lane until end is called: work someone waits for that is not a
// search (an edit and the snapshot before it, a read). The lane's background work yields to it, and the other
// lanes' searches pause at their steps while it runs (Pace). Calling end again does nothing. On a nil lane it
// does nothing.
func (l *Lane) Foreground() (end func()) {
	if l == nil {
		return func() {}
	}
	l.add(1)
	l.urge(1)
	var once sync.Once
	return func() { once.Do(func() { l.urge(-1); l.add(-1) }) }
}

// Search counts a search as foreground work of the lane until end is called: the lane's background work yields
// to it, but no other lane's work pauses for it, and it pauses, at its steps, for the other lanes' Foreground
// work (Pace). Calling end again does nothing. On a nil lane it does nothing.
func (l *Lane) Search() (end func()) {
	if l == nil {
		return func() {}
	}
	l.add(1)
	var once sync.Once
	return func() { once.Do(func() { l.add(-1) }) }
}

// urge changes the count of the lane's Foreground work, and the scheduler's count of lanes with some when it
// starts or ends.
func (l *Lane) urge(d int32) {
	n := l.urgent.Add(d)
	if l.s == nil || (n == 0) == (n-d == 0) {
		return
	}
	if n == 0 {
		l.s.urgent.Add(-1)
	} else {
		l.s.urgent.Add(1)
	}
}

// add changes the count of foreground work, and the scheduler's count of lanes with some when it starts or ends.
func (l *Lane) add(d int) {
	n := l.fg.Add(d)
	if l.s == nil || (n == 0) == (n-d == 0) {
		return
	}
	l.s.mu.Lock()
	if n == 0 {
		l.s.active--
	} else {
		l.s.active++
	}
	l.s.freed.Broadcast()
	l.s.mu.Unlock()
}

// Slot waits until the lane may use one more CPU, and holds it until release is called (once). Parallel
// foreground work (a search's workers) takes one per step, so that while other lanes have foreground work this
// lane uses no more than its share of the CPUs. On a nil lane it does nothing.
func (l *Lane) Slot() (release func()) {
	if l == nil || l.s == nil {
		return func() {}
	}
	s := l.s
	s.mu.Lock()
	for l.slots >= s.share() {
		s.waiting++
		s.freed.Wait()
		s.waiting--
	}
	l.slots++
	s.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			l.slots--
			s.freed.Broadcast()
			s.mu.Unlock()
		})
	}
}

// Aside stops counting one piece of foreground work of the lane until back is called: a search that waits for
// background work (an index being started) must not make that work wait for it in turn.
func (l *Lane) Aside() (back func()) {
	if l == nil {
		return func() {}
	}
	l.add(-1)
	var once sync.Once
	return func() { once.Do(func() { l.add(1) }) }
}

// Busy reports whether foreground work runs in the lane.
func (l *Lane) Busy() bool {
	if l == nil {
		return false
	}
	return l.fg.Load() > 0
}

// Close removes the lane from its scheduler. Work still holding it goes on unaffected.
func (l *Lane) Close() {
	if l == nil || l.s == nil {
		return
	}
	l.s.mu.Lock()
	delete(l.s.lanes, l)
	l.s.mu.Unlock()
}

// watch returns how much foreground work runs and a channel closed when that changes.
func (l *Lane) watch() (int, <-chan struct{}) {
	if l == nil {
		return 0, nil
	}
	return l.fg.Watch()
}

// Count is a counter whose every change wakes those watching it. The zero Count is zero; a nil *Count stays zero.
type Count struct {
	mu      sync.Mutex
	n       int
	changed chan struct{} // closed at the next change; made by the first Watch after one
	loaded  atomic.Int64  // n, for Load without the lock: a search asks at every file
}

// Add adds d and returns the new count.
func (c *Count) Add(d int) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n += d
	c.loaded.Store(int64(c.n))
	if c.changed != nil {
		close(c.changed)
		c.changed = nil
	}
	return c.n
}

// Hold adds one until release is called; calling release again does nothing.
func (c *Count) Hold() (release func()) {
	c.Add(1)
	var once sync.Once
	return func() { once.Do(func() { c.Add(-1) }) }
}

// Load returns the count.
func (c *Count) Load() int {
	if c == nil {
		return 0
	}
	return int(c.loaded.Load())
}

// Watch returns the count and a channel closed when it next changes.
func (c *Count) Watch() (int, <-chan struct{}) {
	if c == nil {
		return 0, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.changed == nil {
		c.changed = make(chan struct{})
	}
	return c.n, c.changed
}
