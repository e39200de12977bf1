// Package httpfetch fetches a web page for the agent and gives it back as Markdown (HTML, through a readability
// pass: webfetch.ReadPage, in this process or in rooted-reader), or as the text or JSON it is.
//
// Guarantees: Fetch connects only over https, and only to public addresses: a host is resolved by the fetcher itself
// and a loopback, private, link-local, shared (CGNAT), multicast, unspecified, reserved or cloud-metadata address
// is refused at dial time, for the first request and every redirect, so neither a name nor a redirect can point it
// at this machine or its network. It follows a redirect to another host only when the caller allows that host;
// otherwise it stops and reports where the redirect leads. It reads at most MaxBytes of a body and refuses any media
// type other than HTML, text and JSON. A page is kept for CacheFor and served again without a request. Search, for
// web_search, is httpsearch's: it reaches the user's configured endpoint only, wherever that is, with a client of
// its own, so the endpoint's exemption never extends to a page.
//
// Not guaranteed: what a public server answers is the server's; deciding which hosts the user allows is the
// caller's (permissions.DecideDomain).
package httpfetch

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/rooted-dev/rooted/backend/webfetch"
	"github.com/rooted-dev/rooted/backend/websearch"
	"github.com/rooted-dev/rooted/backend/websearch/httpsearch"
)

// Defaults.
const (
	DefaultMaxBytes = 5 << 20
	DefaultCacheFor = 15 * time.Minute
	maxRedirects    = 10
	cacheEntries    = 64
)

// Options configure a Client; the zero value is the default.
type Options struct {
	// Resolver resolves host names (default net.DefaultResolver).
	Resolver webfetch.Resolver
	// RootCAs, when set, replaces the system's roots: tests trust their fixture server's certificate this way.
	RootCAs *x509.CertPool
	// Exempt are addresses let through although they are not public: a test's fixture server, never set otherwise.
	Exempt []netip.AddrPort
	// MaxBytes caps the body read (default DefaultMaxBytes); CacheFor is how long a page is kept (default
	// DefaultCacheFor).
	MaxBytes int64
	CacheFor time.Duration
	// Timeout bounds a whole fetch, redirects included (default 30s).
	Timeout time.Duration
}

// Client fetches pages and keeps them for a while. It is safe for concurrent use.
type Client struct {
	client   *http.Client
	maxBytes int64
	cacheFor time.Duration
	now      func() time.Time

	mu    sync.Mutex
	cache map[string]webfetch.Page

	// search runs web_search's searches, with a client of its own: the user's endpoint may be on this machine,
	// which this client's dialer refuses for every page.
	search *httpsearch.Client
}

// Search runs a search at the user's endpoint (websearch.Searcher), so the faces' one web client serves both
// web tools.
func (f *Client) Search(ctx context.Context, e websearch.Endpoint, query string) ([]websearch.Result, error) {
	return f.search.Search(ctx, e, query)
}

// New returns a Client.
func New(o Options) *Client {
	if o.Resolver == nil {
		o.Resolver = net.DefaultResolver
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.CacheFor <= 0 {
		o.CacheFor = DefaultCacheFor
	}
	if o.Timeout <= 0 {
		o.Timeout = 30 * time.Second
	}
	d := webfetch.NewPublicDialer(webfetch.DialOptions{Resolver: o.Resolver, Exempt: o.Exempt})
	transport := &http.Transport{
		Proxy:                 nil, // a proxy would make the connection the dialer checks one to the proxy, not the page
		DialContext:           d.DialContext,
		TLSClientConfig:       &tls.Config{RootCAs: o.RootCAs, MinVersion: tls.VersionTLS12},
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: 20 * time.Second,
		MaxIdleConns:          8,
		IdleConnTimeout:       30 * time.Second,
		ForceAttemptHTTP2:     true,
	}
	return &Client{
		client:   &http.Client{Transport: transport, Timeout: o.Timeout},
		maxBytes: o.MaxBytes, cacheFor: o.CacheFor, now: time.Now,
		cache:  map[string]webfetch.Page{},
		search: httpsearch.New(httpsearch.Options{RootCAs: o.RootCAs}),
	}
}

// Fetch GETs u (from Parse). A redirect to a host other than u's is followed only when follow(host) says so; else
// the page returned has RedirectTo set and nothing else. A page fetched less than CacheFor ago is returned again
// without a request.
func (f *Client) Fetch(ctx context.Context, u *url.URL, follow func(host string) bool) (webfetch.Page, error) {
	key := u.String()
	if p, ok := f.cached(key); ok {
		return p, nil
	}
	first := webfetch.Host(u)
	var redirect string
	client := *f.client
	client.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) >= maxRedirects {
			return fmt.Errorf("more than %d redirects from %s", maxRedirects, key)
		}
		if req.URL.Scheme != "https" {
			return &webfetch.SchemeError{URL: req.URL.String()}
		}
		if h := webfetch.Host(req.URL); h != first && (follow == nil || !follow(h)) {
			redirect = req.URL.String()
			return http.ErrUseLastResponse
		}
		return nil
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, key, nil)
	if err != nil {
		return webfetch.Page{}, err
	}
	req.Header.Set("User-Agent", "Rooted-web_fetch/1 (+https://github.com/rooted-dev/rooted)")
	req.Header.Set("Accept", "text/html, text/markdown;q=0.9, text/plain;q=0.8, application/json;q=0.8, */*;q=0.1")
	resp, err := client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) && ue.Err != nil {
			err = ue.Err
		}
		return webfetch.Page{}, err
	}
	defer resp.Body.Close()
	if redirect != "" {
		return webfetch.Page{URL: resp.Request.URL.String(), Status: resp.StatusCode, RedirectTo: redirect, Fetched: f.now()}, nil
	}
	page, err := f.read(ctx, resp)
	if err != nil {
		return webfetch.Page{}, err
	}
	f.keep(key, page)
	return page, nil
}

// read turns a response into a page.
func (f *Client) read(ctx context.Context, resp *http.Response) (webfetch.Page, error) {
	where := resp.Request.URL.String()
	body, err := io.ReadAll(io.LimitReader(resp.Body, f.maxBytes+1))
	if err != nil {
		return webfetch.Page{}, err
	}
	if int64(len(body)) > f.maxBytes {
		return webfetch.Page{}, &webfetch.TooLargeError{URL: where, Limit: f.maxBytes}
	}
	ct := resp.Header.Get("Content-Type")
	if ct == "" {
		ct = http.DetectContentType(body)
	}
	media, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return webfetch.Page{}, &webfetch.MediaError{URL: where, MediaType: ct}
	}
	page := webfetch.Page{URL: where, Status: resp.StatusCode, MediaType: media, Bytes: int64(len(body)), Fetched: f.now()}
	kind := kindOf(media)
	if kind == "" {
		return webfetch.Page{}, &webfetch.MediaError{URL: where, MediaType: media}
	}
	page.Title, page.Content, err = webfetch.ReadPage(ctx, body, ct, resp.Request.URL, kind == "html")
	if err != nil {
		return webfetch.Page{}, err
	}
	return page, nil
}

// kindOf says how a media type is read: "html", "text" (passed through: text/*, JSON, XML), or "" (refused).
func kindOf(media string) string {
	switch {
	case media == "text/html", media == "application/xhtml+xml":
		return "html"
	case strings.HasPrefix(media, "text/"), media == "application/json", strings.HasSuffix(media, "+json"),
		media == "application/xml", strings.HasSuffix(media, "+xml"), media == "application/javascript":
		return "text"
	}
	return ""
}

func (f *Client) cached(key string) (webfetch.Page, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	p, ok := f.cache[key]
	if !ok {
		return webfetch.Page{}, false
	}
	if f.now().Sub(p.Fetched) >= f.cacheFor {
		delete(f.cache, key)
		return webfetch.Page{}, false
	}
	p.Cached = true
	return p, true
}

// keep stores a page, dropping the oldest when the cache is full: it holds at most cacheEntries pages of at most
// MaxBytes each.
func (f *Client) keep(key string, p webfetch.Page) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.cache) >= cacheEntries {
		oldest := ""
		for k, v := range f.cache {
			if oldest == "" || v.Fetched.Before(f.cache[oldest].Fetched) {
				oldest = k
			}
		}
		delete(f.cache, oldest)
	}
	f.cache[key] = p
}
