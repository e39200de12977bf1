package readerproc

import (
	"os/exec"
	"syscall"
)

// detach gives rooted-reader a session of its own, so it has no terminal to read or write, and the parent-death
// signal, so it ends with its parent even if it ignored its stdin closing.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
}
