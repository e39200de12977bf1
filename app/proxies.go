package app

import (
	"github.com/rooted-dev/rooted/backend/mcpclient"
	"github.com/rooted-dev/rooted/backend/netproxy/httpproxy"
	"github.com/rooted-dev/rooted/backend/shell"
	"github.com/rooted-dev/rooted/backend/tools"
)

// commandProxy makes the proxy of each command in allow-list mode, asking the window through ask.
func commandProxy() func(lists tools.HostLists, ask tools.HostAsk) shell.Proxy {
	base := proxyBase()
	return func(lists tools.HostLists, ask tools.HostAsk) shell.Proxy {
		o := base
		o.Lists, o.Ask = lists, ask
		return httpproxy.New(o)
	}
}

// serverProxy makes the proxy of each program MCP server in allow-list mode: no one asked, the project's lists
// read at each connection, what it refuses recorded for the server's status.
func serverProxy() func(mcpclient.ProxyRules) shell.Proxy {
	return mcpclient.HTTPProxy(proxyBase())
}
