//go:build unix

package becomemcp

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

func init() {
	if len(os.Args) < 2 || os.Args[1] != "mcp" {
		return
	}
	// Only what rooted mcp takes: its flags, or sign-in. Anything else is rooted's usage error to report, not
	// rooted-mcp's other commands to run.
	if len(os.Args) > 2 && os.Args[2] != "sign-in" && !strings.HasPrefix(os.Args[2], "-") {
		return
	}
	self, err := os.Executable()
	if err != nil {
		return
	}
	if real, err := filepath.EvalSymlinks(self); err == nil {
		self = real
	}
	server := filepath.Join(filepath.Dir(self), Name)
	if fi, err := os.Stat(server); err != nil || fi.IsDir() {
		return // rooted's mcp command looks on PATH too, and says what is missing
	}
	// On success Exec does not return; on failure rooted's mcp command tries again and reports why.
	_ = syscall.Exec(server, append([]string{server}, os.Args[2:]...), os.Environ())
}
