package cli

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rooted-dev/rooted/backend/mcpserver"
	"github.com/rooted-dev/rooted/backend/tools"
)

// Version is reported to MCP clients; main may set it.
var Version = "dev"

func runMCP(ctx context.Context, stdio IO, args []string) int {
	fs := newFlagSet("mcp", stdio, "[--root DIR] [--verbose]")
	root := fs.String("root", "", "project root (default: the client's MCP roots choose it)")
	verbose := fs.Bool("verbose", false, "log the server's activity to stderr")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) > 0 {
		return usageError(stdio, fs, "unexpected argument %q", pos[0])
	}
	level := slog.LevelWarn
	if *verbose {
		level = slog.LevelInfo
	}
	s, err := mcpserver.New(mcpserver.Options{Root: *root, Version: Version, Logger: slog.New(slog.NewTextHandler(stdio.Stderr, &slog.HandlerOptions{Level: level}))})
	if err != nil {
		e := tools.Classify(err)
		fmt.Fprintf(stdio.Stderr, "rooted mcp: cannot open project root %s: %s: %s\n", *root, e.Code, e.Message)
		return ExitToolError
	}
	defer s.Close()
	// Stdout is the protocol's: nothing else may be written there.
	if err := s.Run(ctx, &mcp.StdioTransport{}); err != nil && ctx.Err() == nil {
		fmt.Fprintf(stdio.Stderr, "rooted mcp: %v\n", err)
		return ExitToolError
	}
	return ExitOK
}
