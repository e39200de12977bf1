//go:build !unix

package cli

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
)

// become starts another of Rooted's executables (the desktop app, the MCP server) on the same standard streams and
// waits for it, passing on its exit code (Windows has no exec).
func become(argv []string, stdio IO) int {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, stdio.Stdout, stdio.Stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode()
	}
	if err != nil {
		fmt.Fprintf(stdio.Stderr, "rooted: cannot start %s: %v\n", argv[0], err)
		return ExitToolError
	}
	return ExitOK
}
