//go:build windows

package shell

import (
	"os/exec"
	"strconv"
	"syscall"
)

// ownGroup starts the command in a new process group.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}

// signalTree ends the command and its children the Windows way: taskkill over the process tree (there is no
// TERM; both steps force).
func signalTree(cmd *exec.Cmd, _ bool) {
	if cmd.Process == nil {
		return
	}
	_ = exec.Command("taskkill", "/T", "/F", "/PID", strconv.Itoa(cmd.Process.Pid)).Run()
}

// termLeader ends the tree on Windows, where no helper relays a TERM (signalTree).
func termLeader(cmd *exec.Cmd) { signalTree(cmd, false) }

// freezeGroup does nothing on Windows: taskkill ends the tree at once (signalTree).
func freezeGroup(*exec.Cmd) {}
