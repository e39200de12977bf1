//go:build !unix

package cli

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
)

// runDesktop starts the desktop app and waits for it, passing on its exit code (Windows has no exec).
func runDesktop(argv []string, stdio IO) int {
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
