package testthread

import "syscall"

// onMain reports whether the calling thread is the process's main thread, whose thread ID is the process ID.
func onMain() bool { return syscall.Gettid() == syscall.Getpid() }
