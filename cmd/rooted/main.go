// Command rooted is Rooted's command line and MCP server: every tool of the desktop app, from a terminal or another
// agent. It is pure Go (nothing from GTK or WebKit is linked), so it starts like any CLI. With no command, or with
// "open [DIR]" or "--root DIR", it starts the desktop app installed beside it (rooted-desktop).
package main

import (
	"context"
	"io"
	"os"
	"os/signal"
	"syscall"

	_ "github.com/rooted-dev/rooted/backend/becomemcp" // "rooted mcp" becomes rooted-mcp as this package initialises
	"github.com/rooted-dev/rooted/backend/cli"
	"github.com/rooted-dev/rooted/backend/gitexec"
	"github.com/rooted-dev/rooted/backend/sandbox"
)

func main() {
	// The sandbox helper: apply the policy, then become the command. Before anything else starts.
	sandbox.RunHelperIfAsked()
	cli.AbsoluteHome()
	gitexec.UseSandbox() // Rooted's own git runs in the sandbox too
	args := os.Args[1:]
	if len(args) == 0 || !cli.IsCommand(args[0]) {
		// "rooted", "rooted DIR", "rooted --root DIR": the desktop app; open reports anything else as usage.
		args = append([]string{"open"}, args...)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Main(ctx, cli.IO{Stdin: pipedStdin(), Stdout: os.Stdout, Stderr: os.Stderr}, args)
	stop()
	os.Exit(code)
}

// pipedStdin returns stdin unless it is a terminal, so "rooted call TOOL" without JSON does not wait for typing.
func pipedStdin() io.Reader {
	fi, err := os.Stdin.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice != 0 {
		return nil
	}
	return os.Stdin
}
