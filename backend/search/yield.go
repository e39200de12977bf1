package search

import (
	"context"
	"sync/atomic"
	"time"
)

// running counts the searches running in this process (Busy).
var running atomic.Int32

// Busy reports whether a search is running in this process, of any source: background work that reads the same
// files (the trigram build, the first snapshot) waits for it.
func Busy() bool { return running.Load() > 0 }

// Hold counts as a search running until the returned function is called: work that stands for a search outside
// Search (and tests) holds background work back the same way.
func Hold() (release func()) {
	running.Add(1)
	var once atomic.Bool
	return func() {
		if once.CompareAndSwap(false, true) {
			running.Add(-1)
		}
	}
}

// Aside, called by a search's Source while it waits for background work (an index being started), stops counting
// that search as running until back is called: the work it waits for must not wait for it in turn.
func Aside() (back func()) {
	running.Add(-1)
	return func() { running.Add(1) }
}

// Yielder makes background work that reads the same files as searches (the trigram index's build and merge,
// the first snapshot, the watcher's first walk) wait while one runs: the agent waits for its searches, and on a
// 92k-file tree a first search sharing two cores with such work took twice as long. Work calls Wait at its steps
// (between files, before each git it runs).
//
// A wait lasts at most MaxWait: searches one after another (or one that never ends) then let the work go on
// without waiting for a fifth of MaxWait, so it is never starved. The zero Yielder waits at most DefaultMaxWait.
type Yielder struct {
	MaxWait time.Duration

	eager   atomic.Int64 // Unix nanoseconds: until then Wait returns at once (after a wait of MaxWait)
	waiting atomic.Bool
}

// DefaultMaxWait bounds a wait of a Yielder that does not set MaxWait.
const DefaultMaxWait = 5 * time.Second

// Wait waits while a search of this process runs, until ctx ends, stop (when not nil) reports true, or the wait
// reaches MaxWait.
func (y *Yielder) Wait(ctx context.Context, stop func() bool) {
	if !Busy() || time.Now().UnixNano() < y.eager.Load() {
		return
	}
	y.waiting.Store(true)
	defer y.waiting.Store(false)
	maxWait := y.MaxWait
	if maxWait <= 0 {
		maxWait = DefaultMaxWait
	}
	deadline := time.Now().Add(maxWait)
	t := time.NewTimer(5 * time.Millisecond)
	defer t.Stop()
	for Busy() && (stop == nil || !stop()) {
		if time.Now().After(deadline) {
			y.eager.Store(time.Now().Add(maxWait / 5).UnixNano())
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			t.Reset(5 * time.Millisecond)
		}
	}
}

// Waiting reports whether a caller is in Wait, waiting for a search to end.
func (y *Yielder) Waiting() bool { return y.waiting.Load() }

// Reset forgets an earlier wait's MaxWait, so the next Wait waits again at once.
func (y *Yielder) Reset() { y.eager.Store(0) }

// While pauses work that runs outside this process's goroutines (a child process) while a search of this process
// runs, as Wait makes a caller wait: pause is called when a search starts, resume when it ends, when stop (when not
// nil) reports true, or once the work has been paused MaxWait (after which it is not paused again for a fifth of
// MaxWait). It returns once done is closed, always leaving the work resumed.
func (y *Yielder) While(done <-chan struct{}, stop func() bool, pause, resume func()) {
	maxWait := y.MaxWait
	if maxWait <= 0 {
		maxWait = DefaultMaxWait
	}
	paused := false
	var since time.Time
	t := time.NewTicker(5 * time.Millisecond)
	defer t.Stop()
	for {
		want := Busy() && time.Now().UnixNano() >= y.eager.Load() && (stop == nil || !stop())
		if want && paused && time.Since(since) > maxWait {
			y.eager.Store(time.Now().Add(maxWait / 5).UnixNano())
			want = false
		}
		if want != paused {
			if want {
				pause()
				since = time.Now()
			} else {
				resume()
			}
			paused = want
		}
		select {
		case <-done:
			if paused {
				resume()
			}
			return
		case <-t.C:
		}
	}
}
