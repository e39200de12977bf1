package main

import (
	"context"
	"fmt"
	"os"

	"github.com/rooted-dev/rooted/backend/cli"
	"github.com/rooted-dev/rooted/backend/mcpclient"
	"github.com/rooted-dev/rooted/backend/netproxy/httpproxy"
	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/version"
)

// client makes rooted-mcp's MCP client for a project, for rooted call, rooted tools and rooted-mcp sign-in.
type client struct {
	// proxy is what the proxy of each program server in an allow-list project starts from, as the window's
	// does: the zero value here, as in the window's release build (the system's resolver, no exempt address); a
	// test gives its fixtures' names and addresses.
	proxy httpproxy.Options
}

// openForeign is the MCP client of rooted call and rooted tools: the servers the user's settings name for root.
func (c client) openForeign(root string) cli.ForeignTools {
	return foreign{c.newManager(root)}
}

// newManager is root's MCP client with the user's settings, the secrets their entries name and the OAuth grants
// the window (or rooted-mcp sign-in) stored: opened as the window opens them, from the system keyring where one
// answers, else from the files. A program server in a project whose programs reach only listed hosts gets the
// proxy the window gives it (mcpclient.HTTPProxy: the project's lists read at each connection, what it refuses
// recorded and told to the call); without one it would have no network at all.
func (c client) newManager(root string) *mcpclient.Manager {
	opts := mcpclient.Options{Root: root, Version: version.Version, Proxy: mcpclient.HTTPProxy(c.proxy)}
	if path, err := settings.DefaultPath(); err == nil {
		opts.Settings = settings.NewStore(path)
	}
	if k, err := mcpclient.OpenUserKeys(context.Background()); err == nil {
		opts.Secrets, opts.Grants = k.Secrets, k.Grants
		if k.Problem != "" {
			fmt.Fprintf(os.Stderr, "rooted: some MCP secrets or sign-ins stayed in their files: %s\n", k.Problem)
		}
	}
	return mcpclient.New(opts)
}

type foreign struct{ *mcpclient.Manager }

func (f foreign) StartAll(ctx context.Context) {
	f.Start()
	f.Wait(ctx)
}

func (f foreign) Problems() []string {
	var out []string
	for _, st := range f.Status() {
		if st.State == "failed" {
			out = append(out, fmt.Sprintf("the MCP server %s failed: %s", st.Name, st.Error))
		}
	}
	return out
}
