package sched

import (
	"context"
	"sync/atomic"
	"time"
)

// DefaultMaxWait bounds a wait of a Yielder that does not set MaxWait.
const DefaultMaxWait = 5 * time.Second

// Yielder makes one piece of background work of a lane (a trigram build, a first snapshot) yield to the lane's
// foreground work: the agent waits for its searches, and on a 92k-file tree a first search sharing two cores with
// such work took twice as long. The work calls Wait at its steps (between files, before each git it runs), and
// While around a child process it runs.
//
// A wait or a pause lasts at most MaxWait: searches one after another (or one that never ends) then let the work
// go on without yielding for a fifth of MaxWait, so it is never starved. While Stop is above zero (callers waiting
// for a lock the work holds) it does not yield either, so they never wait on a search too.
type Yielder struct {
	Lane    *Lane
	MaxWait time.Duration // 0: DefaultMaxWait
	Stop    *Count        // nil: nothing stops a wait early

	eager   atomic.Int64 // Unix nanoseconds: until then the work does not yield (after a wait of MaxWait)
	waiting atomic.Bool
}

func (y *Yielder) maxWait() time.Duration {
	if y.MaxWait <= 0 {
		return DefaultMaxWait
	}
	return y.MaxWait
}

// Wait waits while foreground work runs in the lane, until ctx ends, Stop rises above zero, or the wait reaches
// MaxWait.
func (y *Yielder) Wait(ctx context.Context) {
	if !y.Lane.Busy() || time.Now().UnixNano() < y.eager.Load() {
		return
	}
	y.waiting.Store(true)
	defer y.waiting.Store(false)
	limit := time.NewTimer(y.maxWait())
	defer limit.Stop()
	for {
		fg, fgChanged := y.Lane.watch()
		stop, stopChanged := y.Stop.Watch()
		if fg == 0 || stop > 0 {
			return
		}
		select {
		case <-fgChanged:
		case <-stopChanged:
		case <-ctx.Done():
			return
		case <-limit.C:
			y.eager.Store(time.Now().Add(y.maxWait() / 5).UnixNano())
			return
		}
	}
}

// Waiting reports whether a caller is in Wait, waiting for foreground work to end.
func (y *Yielder) Waiting() bool { return y.waiting.Load() }

// Reset forgets an earlier wait's MaxWait, so the next Wait waits again at once.
func (y *Yielder) Reset() { y.eager.Store(0) }

// While pauses work that runs outside this process's goroutines (a child process) as Wait makes a caller wait:
// pause is called when foreground work starts in the lane, resume when it ends, when Stop rises above zero, or
// once the work has been paused MaxWait (after which it is not paused again for a fifth of MaxWait). It returns
// once done is closed, always leaving the work resumed.
func (y *Yielder) While(done <-chan struct{}, pause, resume func()) {
	paused := false
	var limit, eager *time.Timer // the pause's MaxWait; the end of an eager spell
	stop := func(t *time.Timer) <-chan time.Time {
		if t != nil {
			t.Stop()
		}
		return nil
	}
	defer func() { stop(limit); stop(eager) }()
	var limitC, eagerEnds <-chan time.Time
	for {
		fg, fgChanged := y.Lane.watch()
		stops, stopChanged := y.Stop.Watch()
		want := fg > 0 && stops == 0
		eagerEnds = stop(eager)
		if until := time.Until(time.Unix(0, y.eager.Load())); want && until > 0 {
			want = false
			eager = time.NewTimer(until) // yield again once the eager spell ends, if still wanted
			eagerEnds = eager.C
		}
		if want != paused {
			if want {
				pause()
				limit = time.NewTimer(y.maxWait())
				limitC = limit.C
			} else {
				resume()
				limitC = stop(limit)
			}
			paused = want
		}
		select {
		case <-done:
			if paused {
				resume()
			}
			return
		case <-fgChanged:
		case <-stopChanged:
		case <-eagerEnds:
		case <-limitC:
			y.eager.Store(time.Now().Add(y.maxWait() / 5).UnixNano())
		}
	}
}
