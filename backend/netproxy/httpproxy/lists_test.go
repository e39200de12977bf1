package httpproxy_test

import (
	"crypto/tls"
	"io"
	"net/http"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/rooted-dev/rooted/backend/netproxy/httpproxy"
	"github.com/rooted-dev/rooted/backend/webfetch/webfetchtest"
)

// liveLists are a project's hosts and deny rules as the user changes them while a proxy runs.
type liveLists struct {
	mu          sync.Mutex
	allow, deny []string
}

func (l *liveLists) set(allow, deny []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.allow, l.deny = allow, deny
}

func (l *liveLists) read() ([]string, []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.allow), slices.Clone(l.deny)
}

// A proxy given Lists (an MCP server's, which lives as long as the server) follows the project's rules as they
// change, connection by connection: a host refused is reached once allowed, and refused again once denied; every
// refused connection is reported to OnRefuse as it happens, with why (not listed, denied, a private address),
// including the second refusal of a host already refused once.
func TestListsFollowedLiveAndRefusalsReported(t *testing.T) {
	web := webfetchtest.New(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "hello from "+r.Host) }), "api.example.com")
	web.Resolver["inward.example.com"] = []netip.Addr{netip.MustParseAddr("10.9.8.7")}
	lists := &liveLists{}
	lists.set([]string{"inward.example.com"}, nil)
	var mu sync.Mutex
	var refused []httpproxy.RefusedError
	p, proxy := start(t, httpproxy.Options{
		Hosts:    []string{"api.example.com"}, // Lists, when set, is what counts
		Resolver: web.Resolver, Exempt: web.Options().Exempt, Lists: lists.read,
		OnRefuse: func(e *httpproxy.RefusedError) {
			mu.Lock()
			refused = append(refused, *e)
			mu.Unlock()
		},
	})
	// The fixture's certificate is checked by the other tests; here what counts is whether the tunnel opens.
	c := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxy), TLSClientConfig: &tls.Config{InsecureSkipVerify: true}, DisableKeepAlives: true}}
	get := func(u string) (string, error) {
		res, err := c.Get(u)
		if err != nil {
			return "", err
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return string(b), nil
	}
	api := web.Sites["api.example.com"].URL("/")
	last := func() httpproxy.RefusedError {
		mu.Lock()
		defer mu.Unlock()
		if len(refused) == 0 {
			return httpproxy.RefusedError{}
		}
		return refused[len(refused)-1]
	}
	count := func() int {
		mu.Lock()
		defer mu.Unlock()
		return len(refused)
	}

	for i := range 2 {
		if _, err := get(api); err == nil || !strings.Contains(err.Error(), "Forbidden by Rooted: api.example.com is not on") {
			t.Fatalf("an unlisted host, try %d: %v", i+1, err)
		}
		if r := last(); r.Host != "api.example.com" || r.Denied || r.Address != nil || count() != i+1 {
			t.Fatalf("reported after try %d: %+v (%d reports)", i+1, r, count())
		}
	}
	lists.set([]string{"api.example.com"}, nil)
	if body, err := get(api); err != nil || !strings.HasPrefix(body, "hello from api.example.com") {
		t.Fatalf("allowed while the proxy ran: %q, %v", body, err)
	}
	if count() != 2 {
		t.Errorf("a connection let through was reported refused: %d reports", count())
	}
	lists.set([]string{"api.example.com", "inward.example.com"}, []string{"api.example.com"})
	if _, err := get(api); err == nil || !strings.Contains(err.Error(), "denied by a rule") {
		t.Fatalf("denied while the proxy ran: %v", err)
	}
	if r := last(); r.Host != "api.example.com" || !r.Denied {
		t.Errorf("a denied host reported as %+v", r)
	}
	if _, err := get("https://inward.example.com/"); err == nil || !strings.Contains(err.Error(), "private address") {
		t.Fatalf("a listed name resolving to a private address: %v", err)
	}
	if r := last(); r.Host != "inward.example.com" || r.Address == nil {
		t.Errorf("a private address reported as %+v", r)
	}
	if got := p.Refused(); !slices.Equal(got, []string{"api.example.com", "inward.example.com"}) {
		t.Errorf("the command's record of refused hosts: %v", got)
	}
}
