package main

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/rooted-dev/rooted/backend/cli"
	"github.com/rooted-dev/rooted/backend/mcpclient"
)

// signIn is rooted mcp sign-in (rooted hands it here, or rooted-mcp sign-in directly): the CLI's way to the sign-in
// the window's Sign in button starts. It prints the authorization URL rather than opening a browser: the redirect
// comes back to a port of this machine, which the user's own browser here reaches.
func signIn(ctx context.Context, stdio cli.IO, args []string, manager func(root string) *mcpclient.Manager) int {
	f, code, ok := cli.ParseSignIn(stdio, args)
	if !ok {
		return code
	}
	abs, err := filepath.Abs(f.Root)
	if err != nil {
		fmt.Fprintf(stdio.Stderr, "rooted mcp sign-in: %v\n", err)
		return cli.ExitUsage
	}
	m := manager(abs)
	defer m.Close()
	err = m.SignIn(ctx, f.Name, func(_ context.Context, url string) error {
		fmt.Fprintf(stdio.Stderr, "To sign in to the MCP server %s, open this URL in a browser on this machine (waiting up to %s):\n\n  %s\n\n", f.Name, mcpclient.SignInTimeout, url)
		return nil
	})
	if err != nil {
		fmt.Fprintf(stdio.Stderr, "rooted mcp sign-in: %v\n", err)
		return cli.ExitToolError
	}
	for _, st := range m.Status() {
		if st.Name == f.Name {
			fmt.Fprintf(stdio.Stdout, "signed in to %s: %s, %d tools\n", f.Name, st.State, len(st.Tools))
		}
	}
	return cli.ExitOK
}
