//go:build unix

package cli

import (
	"fmt"
	"os"
	"syscall"
)

// runDesktop replaces this process with the desktop app: same pid, same signals, same exit code.
func runDesktop(argv []string, stdio IO) int {
	err := syscall.Exec(argv[0], argv, os.Environ())
	fmt.Fprintf(stdio.Stderr, "rooted: cannot start %s: %v\n", argv[0], err)
	return ExitToolError
}
