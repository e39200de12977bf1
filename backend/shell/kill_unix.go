//go:build unix

package shell

import (
	"os/exec"
	"syscall"
)

// ownGroup starts the command in a session of its own (and so a process group of its own, whose id is its pid),
// so everything it starts can be signalled at once; and without a controlling terminal, so it cannot push input
// into the user's terminal (TIOCSTI, on kernels that still allow it).
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }

// signalTree sends TERM (or KILL when hard) to the command's whole process group.
func signalTree(cmd *exec.Cmd, hard bool) {
	if cmd.Process == nil {
		return
	}
	sig := syscall.SIGTERM
	if hard {
		sig = syscall.SIGKILL
	}
	_ = syscall.Kill(-cmd.Process.Pid, sig)
}

// termLeader sends TERM to the group's leader alone: the sandbox's helper, which passes it on (Launch.Relays).
func termLeader(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Signal(syscall.SIGTERM)
	}
}

// freezeGroup stops every process of the command's group at once (STOP cannot be caught, ignored or blocked) and
// lets the leader, the sandbox's helper, alone go on: ending a command through its helper waits for the helper to
// be scheduled and to find each process, and on a loaded machine that is time in which the command still writes.
// Stopped, the processes write nothing more; KILL ends them stopped.
func freezeGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGSTOP)
	_ = syscall.Kill(cmd.Process.Pid, syscall.SIGCONT)
}
