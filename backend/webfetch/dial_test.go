package webfetch

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"testing"
)

// names is a DNS the test controls.
type names map[string][]netip.Addr

func (n names) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if a, ok := n[host]; ok {
		return a, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}

// listen starts a real listener on loopback that accepts and closes, and returns its address.
func listen(t *testing.T) netip.AddrPort {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	return netip.MustParseAddrPort(ln.Addr().String())
}

// refusedErr is a caller's own refusal, as the proxy wraps one.
type refusedErr struct{ *AddressError }

func (e refusedErr) Unwrap() error { return e.AddressError }

func TestPublicDialer(t *testing.T) {
	fixture := listen(t)
	other := listen(t) // listening too, but not exempt
	loop := fixture.Addr().String()
	dns := names{
		"mixed.example.com":   {netip.MustParseAddr("93.184.216.34"), netip.MustParseAddr("192.168.0.10")},
		"private.example.com": {netip.MustParseAddr("10.1.2.3")},
		"mapped.example.com":  {netip.MustParseAddr("::ffff:127.0.0.1")},
		"fixture.example.com": {fixture.Addr()},
		"empty.example.com":   {},
	}
	cases := []struct {
		name, address string
		refusal       func(*AddressError) error
		wantReason    string // "" with wantErr "": connects
		wantHost      string
		wantErr       string // a failure that is not a refusal
		wrapped       bool   // the refusal comes as refusedErr
	}{
		{name: "a name that resolves to a public and a private address", address: "mixed.example.com:443", wantReason: "private", wantHost: "mixed.example.com"},
		{name: "a name that resolves to a private address", address: "private.example.com:80", wantReason: "private", wantHost: "private.example.com"},
		{name: "a name that resolves to loopback as an IPv4-mapped IPv6 address", address: "mapped.example.com:80", wantReason: "loopback", wantHost: "mapped.example.com"},
		{name: "a literal private address", address: "10.0.0.1:80", wantReason: "private", wantHost: "10.0.0.1"},
		{name: "a literal loopback IPv6 address", address: "[::1]:80", wantReason: "loopback", wantHost: "::1"},
		{name: "the cloud metadata address", address: "169.254.169.254:80", wantReason: "cloud metadata", wantHost: "169.254.169.254"},
		{name: "an exempt address at its port", address: fixture.String()},
		{name: "a name that resolves to an exempt address at its port", address: net.JoinHostPort("fixture.example.com", itoa(fixture.Port()))},
		{name: "an exempt address at another port", address: other.String(), wantReason: "loopback", wantHost: loop},
		{name: "a refusal in the caller's own error", address: "10.0.0.1:80", refusal: func(e *AddressError) error { return refusedErr{e} }, wantReason: "private", wantHost: "10.0.0.1", wrapped: true},
		{name: "a name with no address", address: "empty.example.com:80", wantErr: "has no address"},
		{name: "a name that does not resolve", address: "nowhere.example.com:80", wantErr: "no such host"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := NewPublicDialer(DialOptions{Resolver: dns, Exempt: []netip.AddrPort{fixture}, Refusal: c.refusal})
			conn, err := d.DialContext(context.Background(), "tcp", c.address)
			if conn != nil {
				conn.Close()
			}
			switch {
			case c.wantReason == "" && c.wantErr == "":
				if err != nil {
					t.Fatalf("want connected, got %v", err)
				}
			case c.wantErr != "":
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("want an error saying %q, got %v", c.wantErr, err)
				}
			default:
				var ae *AddressError
				if !errors.As(err, &ae) || ae.Reason != c.wantReason || ae.Host != c.wantHost {
					t.Fatalf("want %s refused as %s, got %v", c.wantHost, c.wantReason, err)
				}
				if _, ok := err.(refusedErr); ok != c.wrapped {
					t.Fatalf("refusal wrapped by the caller's Refusal: %v, want %v (%T)", ok, c.wrapped, err)
				}
			}
		})
	}
}

// The socket's own address is checked just before connect, so a connect that skipped Addresses (a resolver
// answering one address to the check and another to the connection, a code path dialling the socket directly)
// still reaches no private address.
func TestPublicDialerControlRefusesAtConnect(t *testing.T) {
	fixture := listen(t)
	other := listen(t)
	d := NewPublicDialer(DialOptions{Exempt: []netip.AddrPort{fixture}})
	for _, c := range []struct {
		address, want string
	}{
		{other.String(), "loopback"},
		{"[::ffff:" + other.Addr().String() + "]:" + itoa(other.Port()), "loopback"},
		{"10.0.0.1:9", "private"},
		{"169.254.169.254:80", "cloud metadata"},
		{fixture.String(), ""},
	} {
		conn, err := d.net.DialContext(context.Background(), "tcp", c.address)
		if conn != nil {
			conn.Close()
		}
		var ae *AddressError
		if c.want == "" {
			if err != nil {
				t.Errorf("%s: want connected, got %v", c.address, err)
			}
			continue
		}
		if !errors.As(err, &ae) || ae.Reason != c.want {
			t.Errorf("%s: want refused at connect as %s, got %v", c.address, c.want, err)
		}
	}
}

// Whatever a name resolves to, the dialer is handed back only public addresses: never one Refused names.
func FuzzPublicDialerAddresses(f *testing.F) {
	for _, s := range [][]byte{{127, 0, 0, 1}, {10, 0, 0, 1}, {169, 254, 169, 254}, {8, 8, 8, 8}, {93, 184, 216, 34}, netip.MustParseAddr("::ffff:192.168.0.1").AsSlice(), netip.MustParseAddr("2606:4700::1111").AsSlice()} {
		f.Add(s, []byte{8, 8, 4, 4})
	}
	f.Fuzz(func(t *testing.T, a, b []byte) {
		var addrs []netip.Addr
		for _, s := range [][]byte{a, b} {
			if ip, ok := netip.AddrFromSlice(s); ok {
				addrs = append(addrs, ip)
			}
		}
		d := NewPublicDialer(DialOptions{Resolver: names{"host.example.com": addrs}})
		got, err := d.Addresses(context.Background(), "host.example.com", 443)
		anyRefused := false
		for _, ip := range addrs {
			anyRefused = anyRefused || Refused(ip) != ""
		}
		if anyRefused && err == nil {
			t.Fatalf("%v: one is not public, and the dialer would dial %v", addrs, got)
		}
		for _, ap := range got {
			if why := Refused(ap.Addr()); why != "" {
				t.Fatalf("%v: would dial %s, a %s address", addrs, ap, why)
			}
		}
	})
}

func itoa(p uint16) string { return strconv.Itoa(int(p)) }
