package testthread_test

import (
	"syscall"
	"testing"

	"github.com/rooted-dev/rooted/backend/testthread"
)

// Goroutine after goroutine locks a thread and returns, each ending its thread, as the tests that use it do: none
// of them runs on the main thread, which the scheduler hands to one of them now and then (the main goroutine of a
// test binary waits for its tests, and its thread runs others meanwhile). It depends on the scheduler doing so
// within 300 goroutines: with the check for the main thread taken out, it failed in 6 runs of 6.
func TestLockOffMain(t *testing.T) {
	for i := range 300 {
		got := make(chan int)
		go func() {
			testthread.LockOffMain()
			got <- syscall.Gettid()
		}()
		if tid := <-got; tid == syscall.Getpid() {
			t.Fatalf("goroutine %d locked to the main thread", i)
		}
	}
}
