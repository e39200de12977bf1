package cli

import (
	"context"
	"fmt"
)

// MCPName is the MCP server's executable, installed beside rooted (build/bin, /usr/bin). It is a binary of its own
// because linking the MCP SDK (and the net/http, TLS and gob packages behind it) made every other command start
// 4 ms slower (bench/search.sh); "rooted mcp" becomes it, so clients still configure rooted.
const MCPName = "rooted-mcp"

// runMCP checks the flags here, so a mistake reads as any other command's, then becomes the MCP server.
func runMCP(_ context.Context, stdio IO, args []string) int {
	fs := newFlagSet("mcp", stdio, "[--root DIR] [--verbose]")
	fs.String("root", "", "project root (default: the client's MCP roots choose it)")
	fs.Bool("verbose", false, "log the server's activity to stderr")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) > 0 {
		return usageError(stdio, fs, "unexpected argument %q", pos[0])
	}
	server, err := findBeside(MCPName)
	if err != nil {
		fmt.Fprintf(stdio.Stderr, "rooted mcp: the MCP server %v: install the rooted package, or build it with make cli\n", err)
		return ExitToolError
	}
	return become(append([]string{server}, args...), stdio)
}
