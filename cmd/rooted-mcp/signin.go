package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/rooted-dev/rooted/backend/cli"
	"github.com/rooted-dev/rooted/backend/mcpclient"
)

const signInUsage = "Usage: rooted-mcp sign-in NAME [--root DIR]\n\nSigns in with OAuth to the HTTP MCP server NAME of the project at DIR (default: the current folder): prints\nthe URL to open in a browser on this machine, waits for the sign-in, and stores it for Rooted's window and CLI.\n"

// signIn is rooted-mcp sign-in: the CLI's way to the sign-in the window's Sign in button starts. It prints the
// authorization URL rather than opening a browser: the redirect comes back to a port of this machine, which the
// user's own browser here reaches.
func signIn(ctx context.Context, stdio cli.IO, args []string, manager func(root string) *mcpclient.Manager) int {
	root, name := ".", ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-h" || a == "--help":
			fmt.Fprint(stdio.Stderr, signInUsage)
			return cli.ExitOK
		case a == "--root" || a == "-root":
			if i+1 == len(args) {
				fmt.Fprintf(stdio.Stderr, "rooted-mcp sign-in: %s needs a folder\n%s", a, signInUsage)
				return cli.ExitUsage
			}
			i++
			root = args[i]
		case strings.HasPrefix(a, "--root=") || strings.HasPrefix(a, "-root="):
			_, root, _ = strings.Cut(a, "=")
		case strings.HasPrefix(a, "-"):
			fmt.Fprintf(stdio.Stderr, "rooted-mcp sign-in: unknown flag %s\n%s", a, signInUsage)
			return cli.ExitUsage
		case name == "":
			name = a
		default:
			fmt.Fprintf(stdio.Stderr, "rooted-mcp sign-in: unexpected argument %q\n%s", a, signInUsage)
			return cli.ExitUsage
		}
	}
	if name == "" {
		fmt.Fprint(stdio.Stderr, "rooted-mcp sign-in: name the server\n"+signInUsage)
		return cli.ExitUsage
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		fmt.Fprintf(stdio.Stderr, "rooted-mcp sign-in: %v\n", err)
		return cli.ExitUsage
	}
	m := manager(abs)
	defer m.Close()
	err = m.SignIn(ctx, name, func(_ context.Context, url string) error {
		fmt.Fprintf(stdio.Stderr, "To sign in to the MCP server %s, open this URL in a browser on this machine (waiting up to %s):\n\n  %s\n\n", name, mcpclient.SignInTimeout, url)
		return nil
	})
	if err != nil {
		fmt.Fprintf(stdio.Stderr, "rooted-mcp sign-in: %v\n", err)
		return cli.ExitToolError
	}
	for _, st := range m.Status() {
		if st.Name == name {
			fmt.Fprintf(stdio.Stdout, "signed in to %s: %s, %d tools\n", name, st.State, len(st.Tools))
		}
	}
	return cli.ExitOK
}
