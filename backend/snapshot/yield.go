package snapshot

import (
	"context"
	"sync/atomic"

	"github.com/rooted-dev/rooted/backend/gitexec"
	"github.com/rooted-dev/rooted/backend/search"
)

// Background work (the first snapshot of a project just opened, the copy of borrowed objects) yields to searches,
// as the trigram build does (search.Yielder): it waits at its steps, before each git it runs and between files of
// its own walk of the tree. What runs meanwhile (an edit's partial snapshot, a command's full one) is unaffected:
// only work on a background context yields.
var yielder search.Yielder

// waiting counts the callers waiting for a repository's lock (a command's backup, a diff, a restore): while one
// waits, background work holding the lock does not pause for searches, so the caller never waits on a search too.
var waiting atomic.Int32

// lockWaited takes r.mu for a caller that waits for it.
func (r *Repo) lockWaited() {
	waiting.Add(1)
	r.mu.Lock()
	waiting.Add(-1)
}

// pauseWhileSearching stops a background git (the group of the sandbox helper and git) while a search of this
// process runs, as yieldToSearches waits between gits: the first snapshot of a big project runs git update-index
// and git add -A over every file for seconds each, and a search beside them took up to 13% longer than rg. A caller
// starting to wait for the repository's lock, which that git holds, lets it go on at once. It returns what to call
// once git has ended.
func pauseWhileSearching(group int) (ended func()) {
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		yielder.While(done, func() bool { return waiting.Load() > 0 },
			func() { gitexec.StopGroup(group) }, func() { gitexec.ContinueGroup(group) })
	}()
	return func() { close(done); <-finished }
}

// yieldToSearches waits while a search runs in this process, when ctx is background work's; ctx ending, or a
// caller starting to wait for a repository's lock, ends the wait.
func yieldToSearches(ctx context.Context) {
	if isBackground(ctx) {
		yielder.Wait(ctx, func() bool { return waiting.Load() > 0 })
	}
}
