package search

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Background work waits while a search runs, and only then: it goes on as soon as the search ends, when its
// context ends or its stop says so, and after MaxWait, after which it goes on without waiting for a fifth of
// MaxWait. Not parallel: Busy counts every search of the process.
func TestYielderWaitsForSearches(t *testing.T) {
	wait := func(y *Yielder, ctx context.Context, stop func() bool) time.Duration {
		start := time.Now()
		y.Wait(ctx, stop)
		return time.Since(start)
	}
	var y Yielder
	if d := wait(&y, context.Background(), nil); d > time.Second {
		t.Errorf("no search running, yet Wait took %v", d)
	}

	release := Hold()
	done := make(chan time.Duration, 1)
	go func() { done <- wait(&y, context.Background(), nil) }()
	for !y.Waiting() {
		time.Sleep(time.Millisecond)
	}
	select {
	case d := <-done:
		t.Fatalf("Wait returned after %v while a search ran", d)
	case <-time.After(200 * time.Millisecond):
	}
	release()
	release() // twice: counted once
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Wait did not return once the search ended")
	}
	if Busy() {
		t.Fatal("a released hold still counts as a search")
	}

	release = Hold()
	defer release()
	ctx, cancel := context.WithCancel(context.Background())
	go func() { done <- wait(&y, ctx, nil) }()
	for !y.Waiting() {
		time.Sleep(time.Millisecond)
	}
	cancel()
	if d := <-done; d > 10*time.Second {
		t.Errorf("Wait went on %v after its context ended", d)
	}
	stopped := make(chan struct{})
	go func() { done <- wait(&y, context.Background(), func() bool { return isClosed(stopped) }) }()
	for !y.Waiting() {
		time.Sleep(time.Millisecond)
	}
	close(stopped)
	if d := <-done; d > 10*time.Second {
		t.Errorf("Wait went on %v after stop said so", d)
	}

	// A search that never ends: the wait is bounded, and the next ones do not wait for a fifth of the bound (300
	// ms, room enough for the next call on a busy machine).
	bounded := Yielder{MaxWait: 1500 * time.Millisecond}
	if d := wait(&bounded, context.Background(), nil); d < 1500*time.Millisecond || d > 20*time.Second {
		t.Errorf("a wait bounded by 1.5 s took %v", d)
	}
	if d := wait(&bounded, context.Background(), nil); d >= time.Second {
		t.Errorf("right after a full wait, Wait waited again (%v)", d)
	}
	bounded.Reset()
	if d := wait(&bounded, context.Background(), nil); d < 1500*time.Millisecond {
		t.Errorf("after Reset, Wait did not wait (%v)", d)
	}
}

func isClosed(c chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// While pauses outside work (a child process) for as long as a search runs, and resumes it when the search ends,
// when stop says so, after MaxWait, and when it is told the work is done.
func TestYielderPausesOutsideWork(t *testing.T) {
	var mu sync.Mutex
	var events []string
	note := func(e string) func() { return func() { mu.Lock(); events = append(events, e); mu.Unlock() } }
	last := func() string {
		mu.Lock()
		defer mu.Unlock()
		if len(events) == 0 {
			return ""
		}
		return events[len(events)-1]
	}
	until := func(want string) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); last() != want; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("waited for %q; events %v", want, events)
			}
		}
	}
	y := Yielder{MaxWait: time.Hour}
	var stopNow atomic.Bool
	done := make(chan struct{})
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		y.While(done, stopNow.Load, note("pause"), note("resume"))
	}()
	release := Hold()
	until("pause")
	release()
	until("resume")
	release = Hold()
	until("pause")
	stopNow.Store(true) // a caller waits for what the work holds
	until("resume")
	stopNow.Store(false)
	until("pause")
	close(done) // the work ended while paused: left resumed
	<-ended
	release()
	if last() != "resume" {
		t.Fatalf("events %v: not left resumed", events)
	}

	// A search that does not end: paused at most MaxWait.
	bounded := Yielder{MaxWait: 300 * time.Millisecond}
	events = nil
	release = Hold()
	defer release()
	done2 := make(chan struct{})
	ended2 := make(chan struct{})
	go func() { defer close(ended2); bounded.While(done2, nil, note("pause"), note("resume")) }()
	until("pause")
	until("resume")
	close(done2)
	<-ended2
}
