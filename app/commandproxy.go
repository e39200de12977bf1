//go:build !dev

package app

import "github.com/rooted-dev/rooted/backend/netproxy/httpproxy"

// proxyBase is what the proxies of commands and MCP servers in allow-list mode start from in a release build: the
// system's resolver, public addresses only, the default wait for an answer.
func proxyBase() httpproxy.Options { return httpproxy.Options{} }
