package httpproxy

import (
	"context"

	"github.com/rooted-dev/rooted/backend/shell"
)

// ForCommands is what tools.Deps.CommandProxy takes in Rooted: a proxy per command, resolving with the system,
// reaching public addresses only, asking through ask (nil: no one to ask) about hosts not on the list.
func ForCommands(allow, deny []string, ask func(ctx context.Context, host string, port int) bool) shell.Proxy {
	return New(Options{Hosts: allow, Denied: deny, Ask: ask})
}
