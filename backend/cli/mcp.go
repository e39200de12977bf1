package cli

import (
	"context"
	"fmt"

	"github.com/rooted-dev/rooted/backend/beside"
)

// MCPName is the MCP server's executable, installed beside rooted (build/bin, /usr/bin). It is a binary of its own
// because linking the MCP SDK (and the net/http, TLS and gob packages behind it) made every other command start
// 4 ms slower (bench/search.sh); "rooted mcp" becomes it, so clients still configure rooted.
const MCPName = "rooted-mcp"

// MCPFlags are rooted mcp's flags.
type MCPFlags struct {
	Root    string // the project root; "" lets the client's MCP roots choose it
	Verbose bool   // log the server's activity to stderr
	// MaxResultBytes caps every result's text (mcpserver.Options.MaxResultBytes): 0 by the client, -1 none.
	MaxResultBytes int
}

// ParseMCP parses rooted mcp's arguments, for rooted (which checks them before it becomes the server, when
// becomemcp has not already) and for rooted-mcp, so both read and report them alike. When ok is false, the
// command ends with exit code code.
func ParseMCP(stdio IO, args []string) (f MCPFlags, code int, ok bool) {
	fs := newFlagSet("mcp", stdio, "[--root DIR] [--verbose] [--max-result-bytes N]")
	fs.StringVar(&f.Root, "root", "", "project root (default: the client's MCP roots choose it)")
	fs.IntVar(&f.MaxResultBytes, "max-result-bytes", 0, "cap every result's text at N bytes (default: by the client's name, else 40000; -1: no cap)")
	fs.BoolVar(&f.Verbose, "verbose", false, "log the server's activity to stderr")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return f, flagExit(err), false
	}
	if len(pos) > 0 {
		return f, usageError(stdio, fs, "unexpected argument %q", pos[0]), false
	}
	return f, ExitOK, true
}

// SignInFlags are rooted mcp sign-in's.
type SignInFlags struct {
	Name string // the HTTP MCP server of the project's settings to sign in to
	Root string // the project root
}

// ParseSignIn parses rooted mcp sign-in's arguments (those after "sign-in"), for rooted, which checks them before
// it hands the sign-in to rooted-mcp, and for rooted-mcp. When ok is false, the command ends with exit code code.
func ParseSignIn(stdio IO, args []string) (f SignInFlags, code int, ok bool) {
	fs := newFlagSet("mcp sign-in", stdio, "NAME [--root DIR]\n\nSigns in with OAuth to the HTTP MCP server NAME of the project's settings: prints the URL to open in a\nbrowser on this machine, waits for the sign-in, and stores it where Rooted's window and CLI find it.")
	fs.StringVar(&f.Root, "root", ".", "project root whose settings name the server")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return f, flagExit(err), false
	}
	switch {
	case len(pos) == 0:
		return f, usageError(stdio, fs, "name the server to sign in to"), false
	case len(pos) > 1:
		return f, usageError(stdio, fs, "unexpected argument %q", pos[1]), false
	}
	f.Name = pos[0]
	return f, ExitOK, true
}

// runMCP checks the flags here, so a mistake reads as any other command's, then becomes the MCP server (or, for
// sign-in, rooted-mcp's sign-in: the OAuth flow needs the HTTP client and the MCP SDK that rooted leaves out). In
// the rooted binary, package becomemcp has usually become the server before this runs: with rooted-mcp beside it
// and arguments that are flags or sign-in, which rooted-mcp checks with the same parser.
func runMCP(_ context.Context, stdio IO, args []string) int {
	if len(args) > 0 && args[0] == "sign-in" {
		if _, code, ok := ParseSignIn(stdio, args[1:]); !ok {
			return code
		}
	} else if _, code, ok := ParseMCP(stdio, args); !ok {
		return code
	}
	server, err := beside.Find(MCPName)
	if err != nil {
		fmt.Fprintf(stdio.Stderr, "rooted mcp: the MCP server %v: install the rooted package, or build it with make cli\n", err)
		return ExitToolError
	}
	return become(append([]string{server}, args...), stdio)
}
