package search

import (
	"context"
	"sync"
	"time"

	"github.com/rooted-dev/rooted/backend/sched"
	"github.com/rooted-dev/rooted/backend/walk"
)

// process counts every search of this process, whatever its lane, for background work that has not yet been
// given the lane of its workspace (the trigram index's build, merge and first walk, through Yielder, Busy and
// Aside). It is the one process-wide thing left here: a search's own lane (Options.Lane) is what a workspace's
// snapshots yield to, so that a search in one workspace never holds another's snapshot back. Once the index takes
// its workspace's lane (Yielder.Lane), this goes.
var process = sched.New().Lane("process")

// DefaultMaxWait bounds a wait of a Yielder that does not set MaxWait.
const DefaultMaxWait = sched.DefaultMaxWait

// Busy reports whether a search is running in this process, of any source or lane.
func Busy() bool { return process.Busy() }

// Hold counts as a search running in this process (not in any lane) until the returned function is called: work
// that stands for a search outside Search (and tests) holds process-wide background work back the same way.
func Hold() (release func()) { return process.Search() }

// Aside, called by a search's Source while it waits for background work (an index being started), stops counting
// that search as running in the process until back is called: the work it waits for must not wait for it in turn.
func Aside() (back func()) { return process.Aside() }

// Yielder makes background work that reads the same files as searches wait while one runs (sched.Yielder says
// how): the searches of Lane, or, when Lane is nil, every search of this process. The zero Yielder waits at most
// DefaultMaxWait for any search of the process.
type Yielder struct {
	MaxWait time.Duration
	Lane    *sched.Lane

	once sync.Once
	y    sched.Yielder
}

func (y *Yielder) inner() *sched.Yielder {
	y.once.Do(func() {
		y.y.MaxWait, y.y.Lane = y.MaxWait, y.Lane
		if y.Lane == nil {
			y.y.Lane = process
		}
	})
	return &y.y
}

// Wait waits while a search runs, until ctx ends or the wait reaches MaxWait. stop, when not nil, is asked first:
// true means no wait.
func (y *Yielder) Wait(ctx context.Context, stop func() bool) {
	if stop != nil && stop() {
		return
	}
	y.inner().Wait(ctx)
}

// Waiting reports whether a caller is in Wait, waiting for a search to end.
func (y *Yielder) Waiting() bool { return y.inner().Waiting() }

// Reset forgets an earlier wait's MaxWait, so the next Wait waits again at once.
func (y *Yielder) Reset() { y.inner().Reset() }

// paceOf is the lane as a walk's Pacer: nil when there is none, so the walk asks nothing.
func paceOf(l *sched.Lane) walk.Pacer {
	if l == nil {
		return nil
	}
	return l
}
