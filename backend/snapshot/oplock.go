package snapshot

import (
	"context"
	"sync"
	"time"

	"github.com/rooted-dev/rooted/backend/sched"
)

// opLock is a Repo's in-process lock: one full operation at a time (a full or derived snapshot, a diff, a
// restore, a retention run), and the Repo state they share. Beyond a mutex it knows two things its callers decide
// on: whether its holder is scanning the tree (the first snapshot, which takes seconds: an edit then records a
// partial snapshot instead of waiting, and a listing waits only so long), and how many callers wait for it (Wanted:
// while one does, background work holding it stops yielding to searches, so that caller never waits on a search
// too). Every wait is woken by the change it waits for; nothing polls.
//
// The zero opLock is unlocked.
type opLock struct {
	mu       sync.Mutex
	held     bool
	scanning bool
	changed  chan struct{} // closed when held or scanning next changes; made by the first waiter after a change

	wanted sched.Count // callers in LockWaited
}

// Lock takes the lock, waiting for it.
func (l *opLock) Lock() { l.lock(nil, nil) }

// LockWaited takes the lock for a caller that someone waits for (an edit's or a command's backup, a diff, a
// restore): background work holding the lock stops yielding to searches until this caller has it.
func (l *opLock) LockWaited() {
	release := l.wanted.Hold()
	defer release()
	l.lock(nil, nil)
}

// TryLock takes the lock if it is free.
func (l *opLock) TryLock() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.held {
		return false
	}
	l.held = true
	return true
}

// LockWithin takes the lock, waiting for any holder but a scan for as long as it takes, and for a scan at most d
// or until ctx ends; false if it was not taken.
func (l *opLock) LockWithin(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	return l.lock(ctx.Done(), t.C)
}

// lock takes the lock; while a scan holds it, ctxDone or deadline firing gives up (false).
func (l *opLock) lock(ctxDone <-chan struct{}, deadline <-chan time.Time) bool {
	expired := false
	for {
		l.mu.Lock()
		if !l.held {
			l.held = true
			l.mu.Unlock()
			return true
		}
		if l.scanning && expired {
			l.mu.Unlock()
			return false
		}
		if l.changed == nil {
			l.changed = make(chan struct{})
		}
		changed := l.changed
		l.mu.Unlock()
		select {
		case <-changed:
		case <-ctxDone:
			expired, ctxDone, deadline = true, nil, nil
		case <-deadline:
			expired, ctxDone, deadline = true, nil, nil
		}
	}
}

// Unlock lets the lock go.
func (l *opLock) Unlock() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.held {
		panic("snapshot: unlock of an unlocked repository")
	}
	l.held = false
	l.scanning = false // a scan ends with the operation that ran it
	l.wake()
}

// Scanning reports whether the holder is scanning the tree.
func (l *opLock) Scanning() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.scanning
}

// SetScanning says whether the holder is scanning the tree; only the holder calls it.
func (l *opLock) SetScanning(on bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.scanning = on
	l.wake()
}

// wake wakes the waiters; l.mu is held.
func (l *opLock) wake() {
	if l.changed != nil {
		close(l.changed)
		l.changed = nil
	}
}
