package snapshot

import (
	"context"
	"testing"
	"time"
)

// How a caller of each kind fares against each kind of holder: a listing (LockWithin) waits for a scan only so
// long, and for anything else as long as it takes; an edit's TryLock never waits.
func TestOpLock(t *testing.T) {
	const long = time.Hour
	for _, tc := range []struct {
		name     string
		held     bool
		scanning bool
		within   time.Duration // LockWithin's bound
		cancel   bool          // the caller's context has ended
		then     func(l *opLock)
		want     bool
	}{
		{"free", false, false, long, false, nil, true},
		{"free, context ended", false, false, long, true, nil, true},
		{"held by a scan, bound reached", true, true, time.Millisecond, false, nil, false},
		{"held by a scan, context ended", true, true, long, true, nil, false},
		{"held by a scan that ends", true, true, long, false, func(l *opLock) { l.Unlock() }, true},
		{"held by other work, bound reached", true, false, time.Millisecond, false, func(l *opLock) { l.Unlock() }, true},
		{"held by other work, context ended", true, false, long, true, func(l *opLock) { l.Unlock() }, true},
		{"held by a scan that turns into other work", true, true, long, false, func(l *opLock) { l.SetScanning(false); l.Unlock() }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var l opLock
			if tc.held {
				if !l.TryLock() {
					t.Fatal("TryLock of a free lock failed")
				}
				l.SetScanning(tc.scanning)
				if l.TryLock() {
					t.Fatal("TryLock of a held lock succeeded")
				}
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tc.cancel {
				cancel()
			}
			got := make(chan bool, 1)
			go func() { got <- l.LockWithin(ctx, tc.within) }()
			if tc.then != nil {
				tc.then(&l)
			}
			select {
			case ok := <-got:
				if ok != tc.want {
					t.Fatalf("LockWithin = %v, want %v", ok, tc.want)
				}
				if ok && l.TryLock() {
					t.Fatal("LockWithin reported the lock taken, but it is free")
				}
			case <-time.After(30 * time.Second):
				t.Fatal("LockWithin never returned")
			}
		})
	}
}

// A held-by-other-work lock whose holder starts scanning after the listing's bound has passed gives the listing
// up then: it was woken by the change.
func TestOpLockGivesUpWhenTheHolderStartsScanning(t *testing.T) {
	var l opLock
	l.Lock()
	got := make(chan bool, 1)
	go func() { got <- l.LockWithin(context.Background(), time.Millisecond) }()
	time.Sleep(5 * time.Millisecond) // let the bound pass (if it has not, the listing waits for the scan's bound)
	l.SetScanning(true)
	select {
	case ok := <-got:
		if ok {
			t.Fatal("took a lock a scan holds")
		}
	case <-time.After(30 * time.Second):
		t.Fatal("LockWithin never returned")
	}
	l.Unlock()
}

// A caller in LockWaited counts as wanting the lock (background work holding it stops yielding) until it has it;
// the count wakes whoever watches it. Unlock ends a scan.
func TestOpLockWanted(t *testing.T) {
	var l opLock
	l.Lock()
	l.SetScanning(true)
	n, changed := l.wanted.Watch()
	if n != 0 {
		t.Fatalf("wanted %d before anyone waits", n)
	}
	got := make(chan struct{})
	go func() { l.LockWaited(); close(got) }()
	select {
	case <-changed:
	case <-time.After(30 * time.Second):
		t.Fatal("a waiting caller did not wake the watcher")
	}
	if l.wanted.Load() != 1 {
		t.Fatalf("wanted %d with one caller waiting", l.wanted.Load())
	}
	l.Unlock()
	<-got
	if l.wanted.Load() != 0 || l.Scanning() {
		t.Fatalf("after handing over: wanted %d, scanning %v", l.wanted.Load(), l.Scanning())
	}
	l.Unlock()
	defer func() {
		if recover() == nil {
			t.Fatal("unlocking a free lock did not panic")
		}
	}()
	l.Unlock()
}
