package workspace

import (
	"sync"

	"github.com/rooted-dev/rooted/backend/tools"
	"github.com/rooted-dev/rooted/backend/watch"
)

// Kind names what an Event reports.
type Kind string

// The kinds of event a workspace emits, and the type of each one's Data.
const (
	KindFiles     Kind = "files"      // Files: a debounced batch of changes the watcher saw
	KindSnapshot  Kind = "snapshot"   // Snapshot: how the first snapshot of the project goes
	KindJobOutput Kind = "job_output" // JobOutput: a background job wrote output
	KindJobChange Kind = "job_change" // jobs.Info: a background job started or ended
)

// Event is one report from a workspace, tagged with its id so a face holding several can route it.
type Event struct {
	Workspace string
	Kind      Kind
	Data      any
}

// Files is a batch of changes on disk, with the watcher's coverage at the time.
type Files struct {
	Root    string
	Changes []watch.Event
	Watch   watch.Status
}

// Snapshot is the progress of the project's first snapshot.
type Snapshot struct {
	Root string
	tools.FirstSnapshot
}

// JobOutput says job ID of the project at Root has new output.
type JobOutput struct {
	Root, ID string
}

// Stream delivers a workspace's events to its subscribers: each event to every subscriber, in the order its
// source emitted it, on the emitter's goroutine (a subscriber that needs to block hands the event on). After the
// workspace closes nothing more is delivered.
type Stream struct {
	id     string
	mu     sync.Mutex
	next   int
	subs   map[int]func(Event)
	closed bool
}

// Subscribe calls fn with every event from now on; cancel stops it.
func (s *Stream) Subscribe(fn func(Event)) (cancel func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.subs == nil {
		s.subs = map[int]func(Event){}
	}
	s.next++
	n := s.next
	s.subs[n] = fn
	return func() {
		s.mu.Lock()
		delete(s.subs, n)
		s.mu.Unlock()
	}
}

func (s *Stream) emit(kind Kind, data any) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	fns := make([]func(Event), 0, len(s.subs))
	for _, fn := range s.subs {
		fns = append(fns, fn)
	}
	s.mu.Unlock()
	e := Event{Workspace: s.id, Kind: kind, Data: data}
	for _, fn := range fns {
		fn(e)
	}
}

func (s *Stream) close() {
	s.mu.Lock()
	s.closed = true
	s.subs = nil
	s.mu.Unlock()
}
