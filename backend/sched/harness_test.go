package sched

import (
	"sync"
	"testing"
	"time"
)

// The harness the lane tests share: lanes opened by name, Foreground work started on some of them, and a blocking
// call (Wait, Pace, While) made in a goroutine of its own, then watched until it is held or returns.

// never is a MaxWait no test reaches: a wait that ends did so because it was woken.
const never = time.Hour

// openLanes opens a lane of s for each name, keyed by it, for tables whose cases name the busy lanes.
func openLanes(s *Scheduler, names ...string) map[string]*Lane {
	lanes := make(map[string]*Lane, len(names))
	for _, name := range names {
		lanes[name] = s.Lane(name)
	}
	return lanes
}

// foreground starts Foreground work on each named lane, in order (a name listed twice, twice), and returns the
// ends in the same order.
func foreground(lanes map[string]*Lane, names []string) []func() {
	var ends []func()
	for _, name := range names {
		ends = append(ends, lanes[name].Foreground())
	}
	return ends
}

// manyLanes runs 8 lanes of s at once, each with workers pairs of goroutines: one doing Foreground work rounds
// times, the other calling the step that call(l) makes for its lane as many times. It returns once every
// goroutine has, each lane closed when its own goroutines are done.
func manyLanes(s *Scheduler, workers, rounds int, call func(l *Lane) (step func())) {
	var wg sync.WaitGroup
	for range 8 {
		l := s.Lane("w")
		wg.Go(func() {
			defer l.Close()
			var inner sync.WaitGroup
			for range workers {
				inner.Go(func() {
					for range rounds {
						l.Foreground()()
					}
				})
				inner.Go(func() {
					step := call(l)
					for range rounds {
						step()
					}
				})
			}
			inner.Wait()
		})
	}
	wg.Wait()
}

// blocking is a call that may block (Wait, Pace, While) made in a goroutine of its own, as the work that makes it
// would.
type blocking struct {
	what     string
	returned chan struct{}
}

// start makes call in a new goroutine; what names it in failures.
func start(what string, call func()) *blocking {
	b := &blocking{what: what, returned: make(chan struct{})}
	go func() {
		call()
		close(b.returned)
	}()
	return b
}

// done reports, without waiting, whether the call has returned.
func (b *blocking) done() bool {
	select {
	case <-b.returned:
		return true
	default:
		return false
	}
}

// held waits until isHeld reports the call held (Waiting, Pausing), and fails if the call has returned: it must
// not, while the reason given holds.
func (b *blocking) held(t *testing.T, isHeld func() bool, while string) {
	t.Helper()
	waitUntil(t, isHeld, b.what+" to be held")
	if b.done() {
		t.Fatalf("%s returned %s", b.what, while)
	}
}

// stays fails if the call returns within d: it must not, while the reason given holds.
func (b *blocking) stays(t *testing.T, d time.Duration, while string) {
	t.Helper()
	select {
	case <-b.returned:
		t.Fatalf("%s returned %s", b.what, while)
	case <-time.After(d):
	}
}

// reached waits until the call is held or has already returned, so that what a test does next happens to a call
// that has got as far as it can.
func (b *blocking) reached(t *testing.T, isHeld func() bool) {
	t.Helper()
	waitUntil(t, func() bool { return b.done() || isHeld() }, b.what+" to be held")
}

// returns fails the test unless the call returns soon.
func (b *blocking) returns(t *testing.T) {
	t.Helper()
	within(t, b.returned, b.what)
}

// within fails the test if ch is not closed soon: a wake-up that never comes would otherwise hang until the test
// binary's timeout.
func within(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(30 * time.Second):
		t.Fatalf("%s: never woken", what)
	}
}

// waitUntil spins (yielding the processor) until cond holds: the start of a goroutine's wait.
func waitUntil(t *testing.T, cond func() bool, what string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: never happened", what)
		}
		time.Sleep(100 * time.Microsecond)
	}
}
