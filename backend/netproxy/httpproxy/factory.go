package httpproxy

import (
	"context"

	"github.com/rooted-dev/rooted/backend/shell"
)

// ForCommands is what tools.Deps.CommandProxy takes in Rooted: a proxy per command, resolving with the system,
// reaching public addresses only, its lists read at each connection, asking through ask (nil: no one to ask)
// about hosts not on them.
func ForCommands(lists func() (allow, deny []string), ask func(ctx context.Context, host string, port int) bool) shell.Proxy {
	return New(Options{Lists: lists, Ask: ask})
}
