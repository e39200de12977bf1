package main

import (
	"context"
	"fmt"

	"github.com/rooted-dev/rooted/backend/cli"
	"github.com/rooted-dev/rooted/backend/mcpclient"
	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/version"
)

// foreign is the MCP client of rooted call and rooted tools: the servers the user's settings name for root.
func openForeign(root string) cli.ForeignTools {
	var store *settings.Store
	if path, err := settings.DefaultPath(); err == nil {
		store = settings.NewStore(path)
	}
	return foreign{mcpclient.New(mcpclient.Options{Root: root, Settings: store, Version: version.Version})}
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
