package search

import (
	"context"
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
