package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"syscall"
	"time"
)

// Request is what the window asks the relay to send: the URL the AI SDK built from the provider's base URL.
type Request struct {
	Provider string            `json:"provider"`
	URL      string            `json:"url"`
	Method   string            `json:"method"`
	Headers  map[string]string `json:"headers"`
	Body     string            `json:"body"`
}

// Head is the start of a response.
type Head struct {
	Status     int               `json:"status"`
	StatusText string            `json:"status_text"`
	Headers    map[string]string `json:"headers"`
}

// ErrOutsideProvider says a request's URL is not under its provider's base URL.
var ErrOutsideProvider = errors.New("URL is not under the provider's base URL")

// Relay sends the window's requests to providers.
type Relay struct {
	Store  *Store
	Client *http.Client // nil: a client with no overall timeout (responses stream for minutes) and a dial timeout
}

// headers a caller may not set: the relay owns credentials and the connection.
var dropped = map[string]bool{"authorization": true, "proxy-authorization": true, "x-api-key": true, "cookie": true, "host": true, "content-length": true, "connection": true, "origin": true, "referer": true}

// Do sends req and streams the response: head once the status is known, then body with every piece as it arrives.
// It returns when the response has ended, ctx is done, or the request failed.
func (r *Relay) Do(ctx context.Context, req Request, head func(Head), body func([]byte)) error {
	cfg, err := r.Store.Load()
	if err != nil {
		return err
	}
	p, err := cfg.Find(req.Provider)
	if err != nil {
		return err
	}
	if err := under(req.URL, p.BaseURL); err != nil {
		return err
	}
	if p.Kind == Ollama {
		if err := ollamaEndpoint(req.URL, p.BaseURL); err != nil {
			return err
		}
	}
	if _, src := r.Store.HeldKey(p); src != "" && !KeyAllowed(p.BaseURL) {
		return fmt.Errorf("%w: %s holds a key (from %s) and its base URL %s is plain http to a public address; use https", ErrKeyInClear, p.Name, src, p.BaseURL)
	}
	method := strings.ToUpper(req.Method)
	if method == "" {
		method = http.MethodGet
	}
	var rd io.Reader
	if req.Body != "" {
		rd = strings.NewReader(req.Body)
	}
	hr, err := http.NewRequestWithContext(ctx, method, req.URL, rd)
	if err != nil {
		return err
	}
	for k, v := range req.Headers {
		if !dropped[strings.ToLower(k)] {
			hr.Header.Set(k, v)
		}
	}
	key, _ := r.Store.Key(p)
	if key != "" {
		switch p.Kind {
		case Anthropic:
			hr.Header.Set("x-api-key", key)
		default:
			hr.Header.Set("Authorization", "Bearer "+key)
		}
	}
	client := r.Client
	if client == nil {
		client = defaultClient
	}
	// A redirect is followed only under the provider's base URL: Go drops Authorization on a redirect to another
	// host, but not x-api-key, and a base URL's host may hand out redirects it does not own.
	c := *client
	if key != "" && hr.URL.Scheme == "http" {
		// The name was judged private (localhost, *.localhost, a private address); the address it resolves to is
		// judged when the connection is made, and no proxy sees the key in clear.
		c.Transport = keyedPlainTransport
	}
	c.CheckRedirect = func(next *http.Request, via []*http.Request) error {
		if len(via) >= 5 {
			return errors.New("stopped after 5 redirects")
		}
		if err := under(next.URL.String(), p.BaseURL); err != nil {
			return fmt.Errorf("redirect not followed, so the key is not sent there: %w", err)
		}
		if p.Kind == Ollama {
			if err := ollamaEndpoint(next.URL.String(), p.BaseURL); err != nil {
				return fmt.Errorf("redirect not followed: %w", err)
			}
		}
		return nil
	}
	resp, err := c.Do(hr)
	if err != nil {
		return fmt.Errorf("%s: %w", p.Name, err)
	}
	defer resp.Body.Close()
	h := Head{Status: resp.StatusCode, StatusText: http.StatusText(resp.StatusCode), Headers: map[string]string{}}
	for k, v := range resp.Header {
		h.Headers[strings.ToLower(k)] = strings.Join(v, ", ")
	}
	head(h)
	buf := make([]byte, 32<<10)
	for {
		n, err := resp.Body.Read(buf)
		if n > 0 {
			body(append([]byte(nil), buf[:n]...))
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

var defaultClient = &http.Client{Transport: &http.Transport{
	Proxy:                 http.ProxyFromEnvironment,
	ResponseHeaderTimeout: 10 * time.Minute, // a local model can think for a long time before its first byte
	TLSHandshakeTimeout:   15 * time.Second,
	IdleConnTimeout:       90 * time.Second,
}}

// keyedPlainTransport carries requests that hold a key over plain http: directly (no proxy), and only to an
// address on this machine or a private network, checked on the address the dial is about to connect to, whatever
// name led there (a *.localhost name a resolver maps to a public address is refused).
var keyedPlainTransport = &http.Transport{
	DialContext:           (&net.Dialer{Timeout: 30 * time.Second, Control: privateOnly}).DialContext,
	ResponseHeaderTimeout: 10 * time.Minute,
	IdleConnTimeout:       90 * time.Second,
}

// privateOnly refuses a connection to an address that is neither loopback nor private.
func privateOnly(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("%w: cannot judge the address %s", ErrKeyInClear, address)
	}
	if ip := ap.Addr().Unmap(); !ip.IsLoopback() && !ip.IsPrivate() {
		return fmt.Errorf("%w: the address %s is public; a key goes over plain http only to this machine or a private address", ErrKeyInClear, ip)
	}
	return nil
}

// under checks that raw is base or below it: same scheme, host and port, and a path under base's path.
func under(raw, base string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("%w: %q", ErrOutsideProvider, raw)
	}
	b, err := url.Parse(base)
	if err != nil {
		return fmt.Errorf("%w: %q", ErrOutsideProvider, raw)
	}
	bp := strings.TrimSuffix(b.Path, "/")
	if u.Scheme != b.Scheme || u.Host != b.Host || u.User != nil || (u.Path != bp && !strings.HasPrefix(u.Path, bp+"/")) || strings.Contains(u.Path, "/../") || strings.HasSuffix(u.Path, "/..") {
		return fmt.Errorf("%w: %s is not under %s", ErrOutsideProvider, raw, base)
	}
	return nil
}

// ollamaEndpoints are the parts of Ollama's API the window uses, below the server's base URL: chat, a model's
// details (its context window) and the model list. Nothing else is relayed to an Ollama provider, so the web view
// cannot pull, push, copy or delete models through the relay.
var ollamaEndpoints = []string{"/api/chat", "/api/show", "/api/tags"}

// ErrNotOllamaAPI says a request to an Ollama provider is not one of ollamaEndpoints.
var ErrNotOllamaAPI = errors.New("not an Ollama endpoint Rooted relays")

// ollamaEndpoint checks that raw (already under base) is one of ollamaEndpoints below base.
func ollamaEndpoint(raw, base string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("%w: %q", ErrNotOllamaAPI, raw)
	}
	b, err := url.Parse(base)
	if err != nil {
		return fmt.Errorf("%w: %q", ErrNotOllamaAPI, raw)
	}
	rest := strings.TrimPrefix(u.Path, strings.TrimSuffix(b.Path, "/"))
	if !slices.Contains(ollamaEndpoints, rest) {
		return fmt.Errorf("%w: %s (only %s below %s)", ErrNotOllamaAPI, raw, strings.Join(ollamaEndpoints, ", "), base)
	}
	return nil
}
