// Package testthread gives a test a thread that ends when its goroutine returns, for tests of what outlives, or
// dies with, the thread that started a process. It is for tests only: no other code imports it (testtree's
// TestOnlyTestsImportIt checks).
package testthread

import (
	"runtime"
	"time"
)

// LockOffMain locks the calling goroutine to a thread other than the process's main one, and leaves it locked: Go
// ends that thread when the goroutine returns. Go parks the main thread for good instead ("This is the main thread.
// Just wedge it." in runtime.mexit), so a test whose goroutine happened to run there would see no thread end, and
// pass or fail by chance (a CI run once started its command there).
func LockOffMain() {
	for {
		runtime.LockOSThread()
		if !onMain() {
			return
		}
		runtime.UnlockOSThread()
		time.Sleep(time.Millisecond) // woken on another thread, most likely
	}
}
