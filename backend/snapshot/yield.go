package snapshot

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/rooted-dev/rooted/backend/search"
)

// Background work (the first snapshot of a project just opened, the copy of borrowed objects) yields to searches,
// as the trigram build does: the agent waits for its searches, which read the same files, and a search sharing two
// cores with a scan of the tree took twice as long. It waits at its steps: before each git it runs, and between
// files of its own walk of the tree. What runs meanwhile (an edit's partial snapshot, a command's full one) is
// unaffected: only work on a background context yields.

// maxYield bounds one wait: searches running one after another let background work go on for a fifth of the
// time, so a first snapshot is never starved.
var maxYield = 5 * time.Second

// eager, in Unix nanoseconds: until then background work goes on without yielding (after a wait of maxYield).
var eager atomic.Int64

// waiting counts the callers waiting for a repository's lock (a command's backup, a diff, a restore): while one
// waits, background work holding the lock does not pause for searches, so the caller never waits on a search too.
var waiting atomic.Int32

// lockWaited takes r.mu for a caller that waits for it.
func (r *Repo) lockWaited() {
	waiting.Add(1)
	r.mu.Lock()
	waiting.Add(-1)
}

// yieldToSearches waits while a search runs in this process, when ctx is background work's; ctx ending, or a
// caller starting to wait for a repository's lock, ends the wait.
func yieldToSearches(ctx context.Context) {
	if !isBackground(ctx) || !search.Busy() || time.Now().UnixNano() < eager.Load() {
		return
	}
	deadline := time.Now().Add(maxYield)
	for search.Busy() && waiting.Load() == 0 {
		if time.Now().After(deadline) {
			eager.Store(time.Now().Add(maxYield / 5).UnixNano())
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(5 * time.Millisecond):
		}
	}
}
