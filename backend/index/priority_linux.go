package index

import (
	"runtime"

	"golang.org/x/sys/unix"
)

// background puts the calling goroutine on a thread of its own at a low CPU priority (nice 10: about a tenth of
// a busy core's time against a process at the default priority; nice 19 left the build a sixtieth on a machine
// busy with other work, so the index took minutes), for the rest of its life: the thread is not unlocked, so it
// ends with the goroutine and its priority with it.
func background() {
	runtime.LockOSThread()
	_ = unix.Setpriority(unix.PRIO_PROCESS, unix.Gettid(), 10)
}
