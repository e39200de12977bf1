//go:build !dev

package app

import (
	"github.com/rooted-dev/rooted/backend/netproxy/httpproxy"
	"github.com/rooted-dev/rooted/backend/shell"
	"github.com/rooted-dev/rooted/backend/tools"
)

// commandProxy makes the proxy of each command in allow-list mode: httpproxy.ForCommands, public addresses only.
func commandProxy() func(allow, deny []string, ask tools.HostAsk) shell.Proxy {
	return httpproxy.ForCommands
}
