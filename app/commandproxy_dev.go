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
)

// proxyBase, in a development build (wails dev) only, lets the browser tests stand loopback servers in for hosts
// on the internet: ROOTED_DEV_PROXY_FIXTURES lists name=127.0.0.1:port pairs, comma separated; each name resolves
// to its address, and that address and port alone is let through although it is not public.
// ROOTED_DEV_PROXY_ASK_WAIT (a Go duration) shortens the proxy's wait for the window's answer about a host, for
// the browser tests of a question that expires. Unset, they are the release build's. A release build has neither
// variable: this file is not in it.
func proxyBase() httpproxy.Options {
	var o httpproxy.Options
	o.AskWait, _ = time.ParseDuration(os.Getenv("ROOTED_DEV_PROXY_ASK_WAIT"))
	spec := os.Getenv("ROOTED_DEV_PROXY_FIXTURES")
	if spec == "" {
		return o
	}
	fixed := fixedResolver{}
	for _, pair := range strings.Split(spec, ",") {
		name, addr, ok := strings.Cut(strings.TrimSpace(pair), "=")
		ap, err := netip.ParseAddrPort(addr)
		if !ok || err != nil {
			continue
		}
		fixed[strings.ToLower(name)] = ap.Addr()
		o.Exempt = append(o.Exempt, ap)
	}
	o.Resolver = fixed
	return o
}

// fixedResolver answers its names with their fixture's address and every other name as the system does.
type fixedResolver map[string]netip.Addr

func (f fixedResolver) LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error) {
	if a, ok := f[strings.ToLower(host)]; ok {
		return []netip.Addr{a}, nil
	}
	return net.DefaultResolver.LookupNetIP(ctx, network, host)
}
