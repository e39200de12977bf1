//go:build linux

package sandbox

import (
	"errors"
	"os/exec"
	"runtime"

	"golang.org/x/sys/unix"
)

// Start starts cmd from an OS thread that lives until the process it starts has ended, and returns once it has
// started. The sandbox ties a command's life to Rooted's with the parent-death signal (Pdeathsig), which the kernel
// sends when the *thread* that forked the child ends, not the process; the Go runtime ends a thread whenever a
// goroutine locked to it returns (the index's low-priority workers do so by design), and a command started from
// such a thread was KILLed mid-run with no reason anyone could give. Every process Rooted starts with a
// parent-death signal goes through Start.
func Start(cmd *exec.Cmd) error {
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread() // back to the pool only once the child is gone: the thread never ends here
		err := cmd.Start()
		// A pidfd names this child alone: once cmd.Wait has reaped it, waiting on its PID could wait on a process
		// that came later with the same number, parking this thread for that one's life. It is opened before Start
		// returns to its caller, so before anyone can reap the child. Kernels before 5.3 have none: the PID then.
		idType, id := unix.P_PID, 0
		if err == nil {
			id = cmd.Process.Pid
			if fd, ferr := unix.PidfdOpen(id, 0); ferr == nil {
				defer unix.Close(fd)
				idType, id = unix.P_PIDFD, fd
			}
		}
		started <- err
		if err != nil {
			return
		}
		// Wait for the child to end without reaping it (cmd.Wait does that, and may already have: then ECHILD).
		var info unix.Siginfo
		for {
			err := unix.Waitid(idType, id, &info, unix.WEXITED|unix.WNOWAIT, nil)
			if !errors.Is(err, unix.EINTR) {
				return
			}
		}
	}()
	return <-started
}

// Run is Start, then cmd.Wait.
func Run(cmd *exec.Cmd) error {
	if err := Start(cmd); err != nil {
		return err
	}
	return cmd.Wait()
}
