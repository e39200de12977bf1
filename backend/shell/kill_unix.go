//go:build unix

package shell

import (
	"os/exec"
	"syscall"
)

// ownGroup starts the command in a process group of its own, so everything it starts can be signalled at once.
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

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
