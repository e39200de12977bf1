//go:build unix

package cli

import (
	"fmt"
	"os"
	"syscall"
)

// become replaces this process with another of Rooted's executables (the desktop app, the MCP server): same pid,
// same signals, same standard streams, same exit code.
func become(argv []string, stdio IO) int {
	err := syscall.Exec(argv[0], argv, os.Environ())
	fmt.Fprintf(stdio.Stderr, "rooted: cannot start %s: %v\n", argv[0], err)
	return ExitToolError
}
