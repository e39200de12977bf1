//go:build !linux

package sandbox

import (
	"fmt"
	"os/exec"
	"runtime"
)

// Probe reports that this system has no sandbox Rooted can apply.
func Probe(p Policy) Info {
	return Info{Network: true, Reason: fmt.Sprintf("no OS sandbox on %s: commands run with your user's full rights, limited only by the allowlist and the path checks", runtime.GOOS)}
}

// RunHelperIfAsked does nothing where there is no sandbox helper.
func RunHelperIfAsked() {}

func Sandboxed(argv []string, _ Policy, _ Info) ([]string, []string, error) {
	return argv, nil, nil
}

func Isolate(*exec.Cmd, Info) {}
