// Command rooted-desktop is the Rooted window: a desktop workbench in which an LLM agent works on a project folder
// through tools that cannot reach outside it. With no arguments, "--root DIR" or "open DIR" it opens the window;
// with another subcommand it runs the CLI, as cmd/rooted (the pure-Go CLI that starts this binary) does.
package main

import (
	"context"
	"embed"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/rooted-dev/rooted/app"
	"github.com/rooted-dev/rooted/backend/cli"
	"github.com/rooted-dev/rooted/backend/gitexec"
	"github.com/rooted-dev/rooted/backend/sandbox"
)

//go:embed all:frontend/dist
var assets embed.FS

func main() {
	// The sandbox helper: apply the policy, then become the command. Before anything else starts.
	sandbox.RunHelperIfAsked()
	cli.AbsoluteHome()
	gitexec.UseSandbox() // Rooted's own git runs in the sandbox too
	args := os.Args[1:]
	if len(args) > 0 && args[0] == "open" {
		args = args[1:] // this is the app "rooted open" would start
		if len(args) == 1 && !strings.HasPrefix(args[0], "-") {
			args = []string{"--root", args[0]}
		}
	} else if len(args) > 0 && cli.IsCommand(args[0]) {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		code := cli.Main(ctx, cli.IO{Stdin: pipedStdin(), Stdout: os.Stdout, Stderr: os.Stderr}, args)
		stop()
		os.Exit(code)
	}
	fs := flag.NewFlagSet("rooted-desktop", flag.ContinueOnError)
	root := fs.String("root", "", "open this project folder in the window")
	fs.Usage = func() { cli.Main(context.Background(), cli.IO{Stdout: os.Stderr}, []string{"help"}) }
	if err := fs.Parse(args); err != nil {
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
