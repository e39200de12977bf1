// Command rooted-mcp is Rooted's MCP server, which "rooted mcp" starts: every tool over the Model Context Protocol
// on stdin/stdout, for Claude Desktop, Claude Code, Cursor, Zed and other agents. It is apart from rooted so that
// the CLI's other commands do not pay for linking the MCP SDK; run it directly or through rooted, the same way.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"runtime/debug"
	"sync"
	"syscall"

	"github.com/rooted-dev/rooted/backend/cli"
	"github.com/rooted-dev/rooted/backend/gitexec"
	"github.com/rooted-dev/rooted/backend/mcpserver"
	"github.com/rooted-dev/rooted/backend/sandbox"
	"github.com/rooted-dev/rooted/backend/tools"
	"github.com/rooted-dev/rooted/backend/version"
	"github.com/rooted-dev/rooted/backend/webfetch/httpfetch"
)

func main() {
	// The sandbox helper: apply the policy, then become the command. Before anything else starts.
	sandbox.RunHelperIfAsked()
	cli.AbsoluteHome()
	gitexec.UseSandbox() // Rooted's own git runs in the sandbox too
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	var code int
	stdio := cli.IO{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}
	var mcp client
	extras := cli.Extras{Web: httpfetch.New(httpfetch.Options{}), OpenForeign: mcp.openForeign}
	switch {
	case len(os.Args) > 1 && os.Args[1] == "call":
		// rooted call hands web_fetch and other MCP servers' tools here: this binary links the HTTP client and
		// the MCP SDK that rooted leaves out.
		code = cli.CallExtras(ctx, stdio, os.Args[2:], extras)
	case len(os.Args) > 1 && os.Args[1] == "tools":
		code = cli.ToolsExtras(ctx, stdio, os.Args[2:], extras)
	case len(os.Args) > 1 && os.Args[1] == "sign-in":
		// OAuth for an HTTP server of the project's settings, from a terminal.
		code = signIn(ctx, stdio, os.Args[2:], mcp.newManager)
	default:
		code = serve(ctx, os.Stderr, os.Args[1:])
	}
	stop()
	os.Exit(code)
}

// serve runs the server until the client closes stdin or ctx ends. Exit codes are the CLI's: 1 when the project
// cannot be opened or the connection fails, 2 for bad usage.
func serve(ctx context.Context, stderr io.Writer, args []string) int {
	f, code, ok := cli.ParseMCP(cli.IO{Stderr: stderr}, args)
	if !ok {
		return code
	}
	level := slog.LevelWarn
	if f.Verbose {
		level = slog.LevelInfo
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	// No garbage collection until the handshake is answered: the heap is a few MiB then, and the first
	// collections, at a 4 MiB heap, made the agent wait 20 ms more for initialize on a 2-core machine (35 ms
	// against 55). The server calls Started within 250 ms whatever the client does.
	gc := debug.SetGCPercent(-1)
	var once sync.Once
	started := func() { once.Do(func() { debug.SetGCPercent(gc) }) }
	defer started() // a root refused, or a server that ends before Started
	s, err := mcpserver.New(mcpserver.Options{Root: f.Root, Version: version.Version, Logger: logger, MaxResultBytes: f.MaxResultBytes, Started: started})
	if err != nil {
		e := tools.Classify(err)
		fmt.Fprintf(stderr, "rooted mcp: cannot open project root %s: %s: %s\n", f.Root, e.Code, e.Message)
		return cli.ExitToolError
	}
	defer s.Close()
	// Stdout is the protocol's: nothing else may be written there. The transport answers malformed frames itself
	// and the session goes on; it ends when the client closes stdin.
	if err := s.Run(ctx, &mcpserver.Transport{Reader: os.Stdin, Writer: os.Stdout}); err != nil && ctx.Err() == nil && !errors.Is(err, io.EOF) {
		fmt.Fprintf(stderr, "rooted mcp: %v\n", err)
		return cli.ExitToolError
	}
	return cli.ExitOK
}
