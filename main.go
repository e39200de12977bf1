// Command rooted is a desktop workbench in which an LLM agent works on a project folder through tools that cannot
// reach outside it. With no arguments (or only --root DIR) it opens the window; with a subcommand it runs the CLI.
package main

import (
	"context"
	"embed"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/rooted-dev/rooted/app"
	"github.com/rooted-dev/rooted/backend/cli"
	"github.com/rooted-dev/rooted/backend/shell"
)

//go:embed all:frontend/dist
var assets embed.FS

func main() {
	// The sandbox helper: apply the policy, then become the command. Before anything else starts.
	shell.RunHelperIfAsked()
	if len(os.Args) > 1 && cli.IsCommand(os.Args[1]) {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		code := cli.Main(ctx, cli.IO{Stdin: pipedStdin(), Stdout: os.Stdout, Stderr: os.Stderr}, os.Args[1:])
		stop()
		os.Exit(code)
	}
	fs := flag.NewFlagSet("rooted", flag.ContinueOnError)
	root := fs.String("root", "", "open this project folder in the window")
	fs.Usage = func() { cli.Main(context.Background(), cli.IO{Stdout: os.Stderr}, []string{"help"}) }
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(cli.ExitUsage)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "rooted: unknown command %q (see rooted help)\n", fs.Arg(0))
		os.Exit(cli.ExitUsage)
	}
	if err := app.Run(app.Options{Assets: assets, Root: *root}); err != nil {
		fmt.Fprintln(os.Stderr, "rooted:", err)
		os.Exit(1)
	}
}

// pipedStdin returns stdin unless it is a terminal, so "rooted call TOOL" without JSON does not wait for typing.
func pipedStdin() io.Reader {
	fi, err := os.Stdin.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice != 0 {
		return nil
	}
	return os.Stdin
}
