// Package webfetchtest serves web pages over local TLS to a webfetch.Fetcher in tests: names under example.com
// resolve to the fixture servers (the test certificate covers *.example.com), and only those servers' addresses
// are exempt from the refusal of loopback addresses.
package webfetchtest

import (
	"context"
	"crypto/x509"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"testing"

	"github.com/rooted-dev/rooted/backend/webfetch/httpfetch"
)

// Resolver answers names from a map, as a DNS server the test controls would.
type Resolver map[string][]netip.Addr

// LookupNetIP implements webfetch.Resolver.
func (r Resolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if a, ok := r[strings.ToLower(host)]; ok {
		return a, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}

// Site is one fixture server reachable by name.
type Site struct {
	Name   string
	Server *httptest.Server
	mu     sync.Mutex
	hits   int
}

// URL is https://name:port + path.
func (s *Site) URL(path string) string {
	return fmt.Sprintf("https://%s:%d%s", s.Name, s.addr().Port(), path)
}

// Hits is how many requests the site has served.
func (s *Site) Hits() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits
}

func (s *Site) addr() netip.AddrPort {
	return netip.MustParseAddrPort(s.Server.Listener.Addr().String())
}

// Web is a set of sites and the options that let a Fetcher reach them (and nothing else local).
type Web struct {
	Sites    map[string]*Site
	Resolver Resolver
	roots    *x509.CertPool
	exempt   []netip.AddrPort
}

// New starts one TLS server per name (each a subdomain of example.com) serving handler, closed when t ends.
func New(t testing.TB, handler http.Handler, names ...string) *Web {
	t.Helper()
	w := &Web{Sites: map[string]*Site{}, Resolver: Resolver{}, roots: x509.NewCertPool()}
	for _, name := range names {
		site := &Site{Name: name}
		site.Server = httptest.NewTLSServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
			site.mu.Lock()
			site.hits++
			site.mu.Unlock()
			handler.ServeHTTP(rw, r)
		}))
		t.Cleanup(site.Server.Close)
		w.roots.AddCert(site.Server.Certificate())
		w.Sites[name] = site
		w.Resolver[name] = []netip.Addr{site.addr().Addr()}
		w.exempt = append(w.exempt, site.addr())
	}
	return w
}

// Options are the fetcher options that reach the sites: their certificate trusted, their names resolved, their
// exact addresses (and only those) exempt from the loopback refusal.
func (w *Web) Options() httpfetch.Options {
	return httpfetch.Options{Resolver: w.Resolver, RootCAs: w.roots, Exempt: w.exempt}
}
