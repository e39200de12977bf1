//go:build unix

package gitexec

import (
	"os/exec"
	"syscall"
)

// ownGroup starts cmd in a process group of its own, whose id is its pid, so that it and what it starts (git
// under the sandbox helper) can be stopped and continued as one.
func ownGroup(cmd *exec.Cmd) bool {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	return true
}

// StopGroup stops every process of the group (SIGSTOP); ContinueGroup lets them go on.
func StopGroup(group int) { _ = syscall.Kill(-group, syscall.SIGSTOP) }

// ContinueGroup lets a stopped group go on (SIGCONT).
func ContinueGroup(group int) { _ = syscall.Kill(-group, syscall.SIGCONT) }
