//go:build !linux

package readerproc

import "os/exec"

// detach does nothing here: only Linux has the parent-death signal, and the reader confines itself only there.
func detach(*exec.Cmd) {}
