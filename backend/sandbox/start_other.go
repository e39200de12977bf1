//go:build !linux

package sandbox

import "os/exec"

// Start starts cmd: only Linux ties a child's life to the thread that started it.
func Start(cmd *exec.Cmd) error { return cmd.Start() }

// Run runs cmd.
func Run(cmd *exec.Cmd) error { return cmd.Run() }
