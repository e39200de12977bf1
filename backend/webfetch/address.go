package webfetch

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"syscall"
)

// Resolver answers the addresses of a host name (net.DefaultResolver's LookupNetIP); tests pass their own.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// AddressError is a connection refused because of where it would go: a loopback, private, link-local, shared
// (CGNAT), multicast, unspecified, reserved or cloud-metadata address, named by Reason.
type AddressError struct {
	Host   string
	Addr   netip.Addr
	Reason string
}

func (e *AddressError) Error() string {
	if e.Host != "" && e.Host != e.Addr.String() {
		return fmt.Sprintf("%s resolves to %s, a %s address, which web_fetch never connects to", e.Host, e.Addr, e.Reason)
	}
	return fmt.Sprintf("%s is a %s address, which web_fetch never connects to", e.Addr, e.Reason)
}

// special are the ranges inside global unicast that still reach this machine, its network or its cloud: an
// address is public only when it is global unicast and in none of these.
var special = []struct {
	prefix netip.Prefix
	reason string
}{
	{netip.MustParsePrefix("0.0.0.0/8"), "\"this network\""},
	{netip.MustParsePrefix("100.64.0.0/10"), "shared (carrier-grade NAT)"},
	{netip.MustParsePrefix("192.0.0.0/24"), "IETF protocol"},
	{netip.MustParsePrefix("192.0.2.0/24"), "documentation"},
	{netip.MustParsePrefix("198.18.0.0/15"), "benchmarking"},
	{netip.MustParsePrefix("198.51.100.0/24"), "documentation"},
	{netip.MustParsePrefix("203.0.113.0/24"), "documentation"},
	{netip.MustParsePrefix("240.0.0.0/4"), "reserved"},
	{netip.MustParsePrefix("64:ff9b::/96"), "NAT64"},
	{netip.MustParsePrefix("64:ff9b:1::/48"), "NAT64"},
	{netip.MustParsePrefix("100::/64"), "discard"},
	{netip.MustParsePrefix("2001::/23"), "IETF protocol (Teredo, ORCHID)"},
	{netip.MustParsePrefix("2001:db8::/32"), "documentation"},
	{netip.MustParsePrefix("2002::/16"), "6to4"},
	{netip.MustParsePrefix("fec0::/10"), "site-local"},
}

// Refused says why a connection to a must not be made, or "" when a is a public address. It is an allow-list: only
// global unicast outside the special ranges passes, so a class nobody listed (a new private range) is refused.
func Refused(a netip.Addr) string {
	a = a.Unmap() // ::ffff:127.0.0.1 is 127.0.0.1
	switch {
	case !a.IsValid():
		return "invalid"
	case a.IsUnspecified():
		return "unspecified"
	case a.IsLoopback():
		return "loopback"
	case a.Is4() && a.As4() == [4]byte{169, 254, 169, 254}, a == netip.MustParseAddr("fd00:ec2::254"):
		return "cloud metadata"
	case a.IsLinkLocalUnicast():
		return "link-local"
	case a.IsMulticast():
		return "multicast"
	case a.IsPrivate():
		return "private"
	case !a.IsGlobalUnicast():
		return "non-unicast"
	}
	for _, s := range special {
		if s.prefix.Contains(a) {
			return s.reason
		}
	}
	return ""
}

// dialer connects only to public addresses: it resolves the host itself, refuses the connection when an address it
// resolved is not public, and dials the address it checked, so a name cannot answer one address to the check and
// another to the connection (DNS rebinding). The socket's own address is checked once more just before connect.
type dialer struct {
	resolve Resolver
	net     net.Dialer
	// exempt are addresses let through despite Refused: tests' local fixture server only.
	exempt map[netip.AddrPort]bool
}

func newDialer(r Resolver, exempt []netip.AddrPort) *dialer {
	d := &dialer{resolve: r, exempt: map[netip.AddrPort]bool{}}
	for _, a := range exempt {
		d.exempt[a] = true
	}
	d.net.Control = func(network, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return fmt.Errorf("web_fetch: unexpected address %q", address)
		}
		if why := Refused(ap.Addr()); why != "" && !d.exempt[ap] {
			return &AddressError{Addr: ap.Addr().Unmap(), Reason: why}
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
		if why := Refused(a); why != "" && !d.exempt[ap] {
			return nil, &AddressError{Host: host, Addr: a.Unmap(), Reason: why}
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

// CheckLiteral refuses a host that is itself an address that is not public (127.0.0.1, [::1], 169.254.169.254),
// before anyone is asked about it; a name is checked when it is resolved, at dial time.
func CheckLiteral(host string) error {
	a, err := netip.ParseAddr(host)
	if err != nil {
		return nil
	}
	if why := Refused(a); why != "" {
		return &AddressError{Addr: a.Unmap(), Reason: why}
	}
	return nil
}
