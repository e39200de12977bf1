// Package httpsearch runs web_search's searches: one GET of the endpoint the user configured, its JSON read by
// websearch.Decode.
//
// Guarantees: it connects to the endpoint's host and no other: a redirect is followed only to the same host (an
// http to https upgrade included), so an endpoint cannot hand the query, or Rooted's connection, to an address the
// user did not name. The host is looked up once a search, and every connection of that search, its redirects'
// included, goes to the addresses that lookup gave: a public endpoint cannot answer a redirect from a name it
// re-pointed at this machine (DNS rebinding) to have Rooted ask a local service. The endpoint may be on this machine or its network (a local SearXNG): that is the user's
// choice in their own settings, which a project cannot make, and it covers the endpoint only, never the results'
// URLs (web_fetch refuses private addresses whatever a search returned). It reads at most MaxBytes of an answer,
// and a search ends after Timeout. It uses no proxy from the environment: the endpoint is reached as named.
//
// Not guaranteed: what the endpoint answers, or what it does with a query.
package httpsearch

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"github.com/rooted-dev/rooted/backend/webfetch"
	"github.com/rooted-dev/rooted/backend/websearch"
)

// Defaults.
const (
	DefaultMaxBytes = 2 << 20
	DefaultTimeout  = 20 * time.Second
	maxRedirects    = 5
)

// Options configure a Client; the zero value is the default.
type Options struct {
	// RootCAs, when set, replaces the system's roots: tests trust their fixture server's certificate this way.
	RootCAs *x509.CertPool
	// MaxBytes caps the answer read (default DefaultMaxBytes); Timeout bounds a whole search (default
	// DefaultTimeout).
	MaxBytes int64
	Timeout  time.Duration
	// Resolver looks the endpoint's host up (default net.DefaultResolver).
	Resolver webfetch.Resolver
}

// Client runs searches. It is safe for concurrent use.
type Client struct {
	client   *http.Client
	maxBytes int64
	resolve  webfetch.Resolver
}

// pinned is a search's one lookup of its endpoint's host, carried to the transport's dials in the request's
// context.
type pinned struct {
	host  string
	addrs []netip.Addr
}

type pinnedKey struct{}

// New returns a Client.
func New(o Options) *Client {
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.Resolver == nil {
		o.Resolver = net.DefaultResolver
	}
	dialer := &net.Dialer{Timeout: 10 * time.Second}
	transport := &http.Transport{
		Proxy: nil,
		DialContext: func(ctx context.Context, network, address string) (net.Conn, error) {
			return dialPinned(ctx, dialer, network, address)
		},
		TLSClientConfig:       &tls.Config{RootCAs: o.RootCAs, MinVersion: tls.VersionTLS12},
		TLSHandshakeTimeout:   10 * time.Second,
		MaxIdleConns:          4,
		IdleConnTimeout:       30 * time.Second,
		ForceAttemptHTTP2:     true,
		ResponseHeaderTimeout: o.Timeout,
	}
	return &Client{client: &http.Client{Transport: transport, Timeout: o.Timeout}, maxBytes: o.MaxBytes, resolve: o.Resolver}
}

// dialPinned connects to address's port at the addresses its search looked up, in turn; a host the search did not
// look up is not dialled (CheckRedirect keeps a search on its host, so this is the guard's second half).
func dialPinned(ctx context.Context, d *net.Dialer, network, address string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(address)
	if err != nil {
		return nil, err
	}
	p, _ := ctx.Value(pinnedKey{}).(pinned)
	if !strings.EqualFold(host, p.host) {
		return nil, fmt.Errorf("%s is not the endpoint's host", host)
	}
	var first error
	for _, a := range p.addrs {
		c, err := d.DialContext(ctx, network, net.JoinHostPort(a.String(), port))
		if err == nil {
			return c, nil
		}
		if first == nil {
			first = err
		}
	}
	return nil, first
}

// lookup resolves host once for a search: an address as written stays itself.
func (c *Client) lookup(ctx context.Context, host string) (pinned, error) {
	if a, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		return pinned{host: host, addrs: []netip.Addr{a}}, nil
	}
	addrs, err := c.resolve.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return pinned{}, err
	}
	if len(addrs) == 0 {
		return pinned{}, fmt.Errorf("%s has no address", host)
	}
	return pinned{host: host, addrs: addrs}, nil
}

// Search asks e for query and returns its results (websearch.Decode). Every failure is a *websearch.Error naming
// the endpoint.
func (c *Client) Search(ctx context.Context, e websearch.Endpoint, query string) ([]websearch.Result, error) {
	fail := func(status int, format string, args ...any) error {
		return &websearch.Error{Endpoint: e.String(), Status: status, Reason: fmt.Sprintf(format, args...)}
	}
	target := e.URL(query)
	first, err := url.Parse(target)
	if err != nil {
		return nil, fail(0, "not a URL: %v", err)
	}
	lookupCtx, cancel := context.WithTimeout(ctx, c.client.Timeout)
	pin, err := c.lookup(lookupCtx, first.Hostname())
	cancel()
	if err != nil {
		return nil, fail(0, "unreachable: %v", err)
	}
	ctx = context.WithValue(ctx, pinnedKey{}, pin)
	client := *c.client
	client.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) >= maxRedirects {
			return fmt.Errorf("more than %d redirects", maxRedirects)
		}
		if !strings.EqualFold(req.URL.Hostname(), first.Hostname()) {
			return fmt.Errorf("it redirects to %s, another host; set that address as the endpoint if it is the one meant", req.URL.Host)
		}
		return nil
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return nil, fail(0, "%v", err)
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "Rooted-web_search/1 (+https://github.com/rooted-dev/rooted)")
	resp, err := client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) && ue.Err != nil {
			err = ue.Err
		}
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			return nil, &websearch.Error{Endpoint: e.String(), Reason: fmt.Sprintf("no answer within %s", c.client.Timeout), Timeout: true}
		}
		return nil, fail(0, "unreachable: %v", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, c.maxBytes+1))
	if err != nil {
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			return nil, &websearch.Error{Endpoint: e.String(), Status: resp.StatusCode, Reason: fmt.Sprintf("the answer did not end within %s", c.client.Timeout), Timeout: true}
		}
		return nil, fail(resp.StatusCode, "reading the answer: %v", err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fail(resp.StatusCode, "HTTP %d%s", resp.StatusCode, statusHint(resp.StatusCode))
	}
	if int64(len(body)) > c.maxBytes {
		return nil, fail(resp.StatusCode, "the answer is larger than %d bytes, the most web_search reads", c.maxBytes)
	}
	results, err := websearch.Decode(body)
	if err != nil {
		return nil, fail(resp.StatusCode, "%v", err)
	}
	return results, nil
}

// statusHint says what an HTTP status usually means from a SearXNG instance.
func statusHint(status int) string {
	switch status {
	case http.StatusForbidden:
		return " (SearXNG refuses format=json unless its settings.yml lists json under search.formats)"
	case http.StatusTooManyRequests:
		return " (the instance limits how often it is asked: its limiter, or a public instance's)"
	case http.StatusNotFound:
		return " (no search there: the setting names the instance's address, or a URL template with {query})"
	}
	return ""
}
