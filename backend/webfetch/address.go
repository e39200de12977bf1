package webfetch

import (
	"context"
	"fmt"
	"net/netip"
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
