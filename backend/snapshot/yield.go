package snapshot

import (
	"context"

	"github.com/rooted-dev/rooted/backend/gitexec"
)

// Background work (the first snapshot of a project just opened, the copy of borrowed objects) yields to the
// searches of its workspace (Options.Lane), as the trigram build does: it waits at its steps, before each git it
// runs and between files of its own walk of the tree, and the gits it runs are paused while a search runs. What
// runs meanwhile (an edit's partial snapshot, a command's full one) is unaffected: only work on a background
// context yields. A caller starting to wait for the repository's lock (r.mu.LockWaited) ends the yielding at once,
// so it never waits on a search too (r.yielder.Stop).

// pauseWhileSearching stops a background git (the group of the sandbox helper and git) while a search of the
// workspace runs, as yieldToSearches waits between gits: the first snapshot of a big project runs git
// update-index and git add -A over every file for seconds each, and a search beside them took up to 13% longer
// than rg. It returns what to call once git has ended.
func (r *Repo) pauseWhileSearching(group int) (ended func()) {
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		r.yielder.While(done, func() { gitexec.StopGroup(group) }, func() { gitexec.ContinueGroup(group) })
	}()
	return func() { close(done); <-finished }
}

// yieldToSearches waits while a search of the workspace runs, when ctx is background work's; ctx ending, or a
// caller starting to wait for the repository's lock, ends the wait.
func (r *Repo) yieldToSearches(ctx context.Context) {
	if isBackground(ctx) {
		r.yielder.Wait(ctx)
	}
}
