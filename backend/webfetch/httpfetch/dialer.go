package httpfetch

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"syscall"

	"github.com/rooted-dev/rooted/backend/webfetch"
)

// dialer connects only to public addresses: it resolves the host itself, refuses the connection when an address it
// resolved is not public, and dials the address it checked, so a name cannot answer one address to the check and
// another to the connection (DNS rebinding). The socket's own address is checked once more just before connect.
type dialer struct {
	resolve webfetch.Resolver
	net     net.Dialer
	// exempt are addresses let through despite Refused: tests' local fixture server only.
	exempt map[netip.AddrPort]bool
}

func newDialer(r webfetch.Resolver, exempt []netip.AddrPort) *dialer {
	d := &dialer{resolve: r, exempt: map[netip.AddrPort]bool{}}
	for _, a := range exempt {
		d.exempt[a] = true
	}
	d.net.Control = func(network, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return fmt.Errorf("web_fetch: unexpected address %q", address)
		}
		if why := webfetch.Refused(ap.Addr()); why != "" && !d.exempt[ap] {
			return &webfetch.AddressError{Addr: ap.Addr().Unmap(), Reason: why}
		}
		return nil
	}
	return d
}

// check resolves host and returns the public addresses to dial at port, or the refusal.
func (d *dialer) check(ctx context.Context, host string, port uint16) ([]netip.AddrPort, error) {
	var addrs []netip.Addr
	if a, err := netip.ParseAddr(host); err == nil {
		addrs = []netip.Addr{a}
	} else {
		addrs, err = d.resolve.LookupNetIP(ctx, "ip", host)
		if err != nil {
			return nil, err
		}
	}
	out := make([]netip.AddrPort, 0, len(addrs))
	for _, a := range addrs {
		ap := netip.AddrPortFrom(a.Unmap(), port)
		// Any refused address refuses the host: a name that answers both a public and a private address is
		// one whose owner points it inward.
		if why := webfetch.Refused(a); why != "" && !d.exempt[ap] {
			return nil, &webfetch.AddressError{Host: host, Addr: a.Unmap(), Reason: why}
		}
		out = append(out, ap)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s has no address", host)
	}
	return out, nil
}

// DialContext is http.Transport's DialContext.
func (d *dialer) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	host, portText, err := net.SplitHostPort(address)
	if err != nil {
		return nil, err
	}
	port, err := net.LookupPort(network, portText)
	if err != nil {
		return nil, err
	}
	addrs, err := d.check(ctx, host, uint16(port))
	if err != nil {
		return nil, err
	}
	var first error
	for _, ap := range addrs {
		c, err := d.net.DialContext(ctx, network, ap.String())
		if err == nil {
			return c, nil
		}
		if first == nil {
			first = err
		}
	}
	return nil, first
}
