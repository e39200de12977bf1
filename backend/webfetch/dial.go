package webfetch

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"syscall"
	"time"
)

// DialOptions configure a PublicDialer; the zero value is the default.
type DialOptions struct {
	// Resolver resolves host names (default net.DefaultResolver).
	Resolver Resolver
	// Exempt are addresses let through although they are not public: a test's fixture servers, never set
	// otherwise. Each is exempt at its own port only.
	Exempt []netip.AddrPort
	// Timeout bounds each connect (zero: none but the context's).
	Timeout time.Duration
	// Refusal, when set, turns a host refused for what it resolves to into the caller's own error (the proxy's
	// RefusedError wraps it); nil returns the *AddressError itself. A refusal by the socket's last check is
	// returned as the connect's error, unwrapped.
	Refusal func(*AddressError) error
}

// PublicDialer is the one way Rooted connects to a host a page, a command or a model named: only to public
// addresses (Refused says ""). It resolves the host itself, refuses the host when ANY address it resolves to is
// not public (a name that answers both a public and a private address is one whose owner points it inward), and
// dials only the addresses it checked, in turn, so a name cannot answer one address to the check and another to
// the connection (DNS rebinding). The socket's own address is checked once more in the dialer's Control, just
// before connect, so no path to connect skips the check. Safe for concurrent use.
type PublicDialer struct {
	resolve Resolver
	exempt  map[netip.AddrPort]bool
	refusal func(*AddressError) error
	net     net.Dialer
}

// NewPublicDialer returns a dialer with o.
func NewPublicDialer(o DialOptions) *PublicDialer {
	d := &PublicDialer{resolve: o.Resolver, exempt: map[netip.AddrPort]bool{}, refusal: o.Refusal}
	if d.resolve == nil {
		d.resolve = net.DefaultResolver
	}
	for _, a := range o.Exempt {
		d.exempt[netip.AddrPortFrom(a.Addr().Unmap(), a.Port())] = true
	}
	d.net = net.Dialer{Timeout: o.Timeout, Control: d.control}
	return d
}

// ExemptAddr says whether a is exempt at some port: a test's fixture listens there.
func (d *PublicDialer) ExemptAddr(a netip.Addr) bool {
	for ap := range d.exempt {
		if ap.Addr() == a.Unmap() {
			return true
		}
	}
	return false
}

// Addresses resolves host (an address as written stays itself) and returns the addresses to dial at port, or the
// refusal (an *AddressError naming host, through DialOptions.Refusal) when any of them is not public.
func (d *PublicDialer) Addresses(ctx context.Context, host string, port uint16) ([]netip.AddrPort, error) {
	var addrs []netip.Addr
	if a, err := netip.ParseAddr(host); err == nil {
		addrs = []netip.Addr{a}
	} else {
		addrs, err = d.resolve.LookupNetIP(ctx, "ip", host)
		if err != nil {
			return nil, err
		}
	}
	if len(addrs) == 0 {
		return nil, fmt.Errorf("%s has no address", host)
	}
	out := make([]netip.AddrPort, 0, len(addrs))
	for _, a := range addrs {
		ap := netip.AddrPortFrom(a.Unmap(), port)
		if why := Refused(a); why != "" && !d.exempt[ap] {
			e := &AddressError{Host: host, Addr: a.Unmap(), Reason: why}
			if d.refusal != nil {
				return nil, d.refusal(e)
			}
			return nil, e
		}
		out = append(out, ap)
	}
	return out, nil
}

// DialContext connects to address (host:port) at the first of Addresses that answers: http.Transport's
// DialContext.
func (d *PublicDialer) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	host, portText, err := net.SplitHostPort(address)
	if err != nil {
		return nil, err
	}
	port, err := net.LookupPort(network, portText)
	if err != nil {
		return nil, err
	}
	addrs, err := d.Addresses(ctx, host, uint16(port))
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

// control checks the socket's own address once more just before connect: whatever led to this connect, it goes
// to a public address or an exempt one.
func (d *PublicDialer) control(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("rooted: unexpected address %q", address)
	}
	ap = netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port())
	if why := Refused(ap.Addr()); why != "" && !d.exempt[ap] {
		return &AddressError{Addr: ap.Addr(), Reason: why}
	}
	return nil
}
