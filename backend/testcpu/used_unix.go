//go:build unix

package testcpu

import (
	"syscall"
	"time"
)

// Used is the user and system CPU time the process has used, all its threads.
func Used() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
