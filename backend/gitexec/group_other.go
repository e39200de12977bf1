//go:build !unix

package gitexec

import "os/exec"

// ownGroup: no process groups to stop here, so WhileRunning is never called.
func ownGroup(*exec.Cmd) bool { return false }

// StopGroup does nothing where there are no process groups to stop.
func StopGroup(int) {}

// ContinueGroup does nothing where there are no process groups to stop.
func ContinueGroup(int) {}
