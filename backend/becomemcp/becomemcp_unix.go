//go:build unix

package becomemcp

import (
	"os"
	"path/filepath"
	"syscall"
)

// Name is the MCP server's executable (cli.MCPName, which this package cannot import without initialising it).
const Name = "rooted-mcp"

func init() {
	if len(os.Args) < 2 || os.Args[1] != "mcp" {
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
