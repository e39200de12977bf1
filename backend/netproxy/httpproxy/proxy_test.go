package httpproxy_test

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/netproxy/httpproxy"
	"github.com/rooted-dev/rooted/backend/webfetch/webfetchtest"
)

// serving is a proxy serving on a loopback listener, until stop or the test's end.
type serving struct {
	p    *httpproxy.Proxy
	url  *url.URL           // the listener's, as a client's proxy setting names it
	stop context.CancelFunc // ends Serve's context, as the end of the command it serves does
	wait func() error       // waits for Serve to return and returns what it returned
}

// serve serves a proxy with options o on a loopback listener; the test's end stops it and waits for it.
func serve(t testing.TB, o httpproxy.Options) serving {
	t.Helper()
	p := httpproxy.New(o)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- p.Serve(ctx, ln) }()
	s := serving{p: p, url: &url.URL{Scheme: "http", Host: ln.Addr().String()}, stop: cancel, wait: sync.OnceValue(func() error { return <-served })}
	t.Cleanup(func() { cancel(); s.wait() })
	return s
}

// start serves a proxy with options o until the test ends, and returns it with its URL.
func start(t testing.TB, o httpproxy.Options) (*httpproxy.Proxy, *url.URL) {
	t.Helper()
	s := serve(t, o)
	return s.p, s.url
}

func hello(w http.ResponseWriter, r *http.Request) { fmt.Fprintf(w, "hello from %s", r.Host) }

// client trusts web's sites and sends everything through the proxy at proxy.
func client(web *webfetchtest.Web, sites []*webfetchtest.Site, proxy *url.URL) *http.Client {
	roots := x509.NewCertPool()
	for _, s := range sites {
		roots.AddCert(s.Server.Certificate())
	}
	// The fixture's certificate covers *.example.com, one level: a.mirror.example.com is checked by the proxy's
	// rules, not by its certificate.
	verify := func(cs tls.ConnectionState) error {
		_, err := cs.PeerCertificates[0].Verify(x509.VerifyOptions{Roots: roots, DNSName: "example.com"})
		return err
	}
	return &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxy), TLSClientConfig: &tls.Config{InsecureSkipVerify: true, VerifyConnection: verify}}}
}

// Through CONNECT, a listed host (exact or under a *. entry) is reached; an unlisted one, the bare parent of a
// *. entry, and listed names resolving to loopback, private, link-local or metadata addresses are refused with a
// 403 that names the host, and recorded once each.
func TestTunnelsOnlyToListedPublicHosts(t *testing.T) {
	web := webfetchtest.New(t, http.HandlerFunc(hello), "pkg.example.com", "a.mirror.example.com", "mirror.example.com", "other.example.com")
	for name, addr := range map[string]string{
		"loop.example.com": "127.0.0.1", "private.example.com": "10.1.2.3", "meta.example.com": "169.254.169.254",
		"mixed.example.com": "::ffff:192.168.0.1", "v6local.example.com": "fe80::1",
	} {
		web.Resolver[name] = []netip.Addr{netip.MustParseAddr(addr)}
	}
	o := web.Options()
	hosts := []string{"pkg.example.com", "*.mirror.example.com", "loop.example.com", "private.example.com", "meta.example.com", "mixed.example.com", "v6local.example.com", "127.0.0.1"}
	p, proxy := start(t, httpproxy.Options{Hosts: hosts, Resolver: web.Resolver, Exempt: o.Exempt})
	var sites []*webfetchtest.Site
	for _, s := range web.Sites {
		sites = append(sites, s)
	}
	c := client(web, sites, proxy)
	for _, tc := range []struct {
		url     string
		reached bool
		why     string
	}{
		{web.Sites["pkg.example.com"].URL("/"), true, ""},
		{web.Sites["a.mirror.example.com"].URL("/"), true, ""},
		{web.Sites["mirror.example.com"].URL("/"), false, "mirror.example.com is not on this project's list"},
		{web.Sites["other.example.com"].URL("/"), false, "other.example.com is not on this project's list"},
		{"https://loop.example.com:443/", false, "loop.example.com is a loopback address"},
		{"https://private.example.com:443/", false, "private.example.com is a private address"},
		{"https://meta.example.com:443/", false, "meta.example.com is a cloud metadata address"},
		{"https://mixed.example.com:443/", false, "mixed.example.com is a private address"},
		{"https://v6local.example.com:443/", false, "v6local.example.com is a link-local address"},
		{"https://127.0.0.1:443/", false, "127.0.0.1 is a loopback address"},
		{"https://unknown.test:443/", false, "unknown.test is not on this project's list"},
	} {
		res, err := c.Get(tc.url)
		if tc.reached {
			if err != nil {
				t.Errorf("%s: %v", tc.url, err)
				continue
			}
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if !strings.HasPrefix(string(b), "hello from ") {
				t.Errorf("%s: %q", tc.url, b)
			}
			continue
		}
		if err == nil {
			res.Body.Close()
			t.Errorf("%s was reached through the proxy", tc.url)
			continue
		}
		if !strings.Contains(err.Error(), tc.why) {
			t.Errorf("%s: %v, want it to say %q", tc.url, err, tc.why)
		}
	}
	want := []string{"mirror.example.com", "other.example.com", "loop.example.com", "private.example.com", "meta.example.com", "mixed.example.com", "v6local.example.com", "127.0.0.1", "unknown.test"}
	if got := p.Refused(); !slices.Equal(got, want) {
		t.Errorf("Refused() = %v, want %v", got, want)
	}
}

// A refusal's body tells the user how to allow the host, for clients that print it (curl -v, a browser).
func TestRefusalBodyNamesHostAndHowToAllowIt(t *testing.T) {
	_, proxy := start(t, httpproxy.Options{Hosts: []string{"pypi.org"}})
	conn, err := net.Dial("tcp", proxy.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprint(conn, "CONNECT evil.example.net:443 HTTP/1.1\r\nHost: evil.example.net:443\r\n\r\n")
	res, err := http.ReadResponse(bufio.NewReader(conn), &http.Request{Method: http.MethodConnect})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusForbidden || res.Header.Get("X-Rooted-Refused-Host") != "evil.example.net" ||
		!strings.Contains(string(b), "evil.example.net is not on this project's list") || !strings.Contains(string(b), "Settings") {
		t.Errorf("refusal: %s %q %q", res.Status, res.Header, b)
	}
}

// Plain http requests with an absolute URL are forwarded to listed hosts only; a request that is not for a proxy
// is answered 400.
func TestForwardsPlainHTTPToListedHosts(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(hello))
	t.Cleanup(srv.Close)
	ap := netip.MustParseAddrPort(srv.Listener.Addr().String())
	r := webfetchtest.Resolver{"plain.example.com": {ap.Addr()}, "other.example.com": {ap.Addr()}}
	p, proxy := start(t, httpproxy.Options{Hosts: []string{"plain.example.com"}, Resolver: r, Exempt: []netip.AddrPort{ap}})
	c := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxy)}}
	res, err := c.Get(fmt.Sprintf("http://plain.example.com:%d/x", ap.Port()))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if string(b) != fmt.Sprintf("hello from plain.example.com:%d", ap.Port()) {
		t.Errorf("forwarded: %q", b)
	}
	res, err = c.Get(fmt.Sprintf("http://other.example.com:%d/x", ap.Port()))
	if err != nil {
		t.Fatal(err)
	}
	b, _ = io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusForbidden || !strings.Contains(string(b), "other.example.com is not on") {
		t.Errorf("an unlisted plain host: %s %q", res.Status, b)
	}
	res, err = http.Get(proxy.String() + "/direct")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusBadRequest {
		t.Errorf("a request not for a proxy: %s", res.Status)
	}
	if got := p.Refused(); !slices.Equal(got, []string{"other.example.com"}) {
		t.Errorf("Refused() = %v", got)
	}
}

// Ending the proxy's context closes its listener and the tunnels still open.
func TestServeEndsWithItsContext(t *testing.T) {
	web := webfetchtest.New(t, http.HandlerFunc(hello), "pkg.example.com")
	s := serve(t, httpproxy.Options{Hosts: []string{"pkg.example.com"}, Resolver: web.Resolver, Exempt: web.Options().Exempt})
	conn, err := net.Dial("tcp", s.url.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	host := strings.TrimPrefix(web.Sites["pkg.example.com"].URL(""), "https://")
	fmt.Fprintf(conn, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n", host, host)
	br := bufio.NewReader(conn)
	res, err := http.ReadResponse(br, &http.Request{Method: http.MethodConnect})
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("CONNECT: %v %v", res, err)
	}
	s.stop()
	if err := s.wait(); err != nil {
		t.Errorf("Serve: %v", err)
	}
	// The deadline only turns a tunnel left open into a failure that says so, instead of a read that never returns.
	if err := conn.SetReadDeadline(time.Now().Add(10 * time.Second)); err != nil {
		t.Fatal(err)
	}
	if b, err := br.ReadByte(); err == nil {
		t.Errorf("a tunnel stayed open after the proxy ended: read %q from it", b)
	} else if errors.Is(err, os.ErrDeadlineExceeded) {
		t.Error("a tunnel stayed open after the proxy ended: a read on it still waits")
	}
	if _, err := net.Dial("tcp", s.url.Host); err == nil {
		t.Error("the listener stayed open after the proxy ended")
	}
}

// A host the user's rules deny is refused even where the list names it, and the refusal says a rule denies it.
func TestDeniedHostIsRefusedThoughListed(t *testing.T) {
	web := webfetchtest.New(t, http.HandlerFunc(hello), "pkg.example.com", "bad.example.com")
	p, proxy := start(t, httpproxy.Options{Hosts: []string{"pkg.example.com", "bad.example.com"}, Denied: []string{"bad.example.com"}, Resolver: web.Resolver, Exempt: web.Options().Exempt})
	c := client(web, []*webfetchtest.Site{web.Sites["pkg.example.com"]}, proxy)
	if res, err := c.Get(web.Sites["pkg.example.com"].URL("/")); err != nil {
		t.Errorf("a listed host: %v", err)
	} else {
		res.Body.Close()
	}
	_, err := c.Get(web.Sites["bad.example.com"].URL("/"))
	if err == nil || !strings.Contains(err.Error(), "bad.example.com is denied by a rule") {
		t.Errorf("a denied host: %v", err)
	}
	if got := p.Refused(); !slices.Equal(got, []string{"bad.example.com"}) {
		t.Errorf("Refused() = %v", got)
	}
}
