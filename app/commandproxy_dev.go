//go:build dev

package app

import (
	"context"
	"net"
	"net/netip"
	"os"
	"strings"
	"time"

	"github.com/rooted-dev/rooted/backend/netproxy/httpproxy"
	"github.com/rooted-dev/rooted/backend/shell"
	"github.com/rooted-dev/rooted/backend/tools"
)

// commandProxy, in a development build (wails dev) only, lets the browser tests stand loopback servers in for
// hosts on the internet: ROOTED_DEV_PROXY_FIXTURES lists name=127.0.0.1:port pairs, comma separated; each name
// resolves to its address, and that address and port alone is let through although it is not public. Unset, it
// is the release build's proxy. ROOTED_DEV_PROXY_ASK_WAIT (a Go duration) shortens the proxy's wait for the
// window's answer about a host, for the browser tests of a question that expires. A release build has neither
// variable: this file is not in it.
func commandProxy() func(allow, deny []string, ask tools.HostAsk) shell.Proxy {
	spec := os.Getenv("ROOTED_DEV_PROXY_FIXTURES")
	wait, _ := time.ParseDuration(os.Getenv("ROOTED_DEV_PROXY_ASK_WAIT"))
	if spec == "" && wait <= 0 {
		return httpproxy.ForCommands
	}
	fixed := fixedResolver{}
	var exempt []netip.AddrPort
	for _, pair := range strings.Split(spec, ",") {
		name, addr, ok := strings.Cut(strings.TrimSpace(pair), "=")
		ap, err := netip.ParseAddrPort(addr)
		if !ok || err != nil {
			continue
		}
		fixed[strings.ToLower(name)] = ap.Addr()
		exempt = append(exempt, ap)
	}
	return func(allow, deny []string, ask tools.HostAsk) shell.Proxy {
		return httpproxy.New(httpproxy.Options{Hosts: allow, Denied: deny, Ask: ask, Resolver: fixed, Exempt: exempt, AskWait: wait})
	}
}

// fixedResolver answers its names with their fixture's address and every other name as the system does.
type fixedResolver map[string]netip.Addr

func (f fixedResolver) LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error) {
	if a, ok := f[strings.ToLower(host)]; ok {
		return []netip.Addr{a}, nil
	}
	return net.DefaultResolver.LookupNetIP(ctx, network, host)
}
