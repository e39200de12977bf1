package index

import (
	"runtime"

	"golang.org/x/sys/unix"
)

// background puts the calling goroutine on a thread of its own at a low CPU priority, for the rest of its life: the
// thread is not unlocked, so it ends with the goroutine and its priority with it.
func background(nice int) {
	runtime.LockOSThread()
	_ = unix.Setpriority(unix.PRIO_PROCESS, unix.Gettid(), nice)
}
