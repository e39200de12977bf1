package httpproxy_test

import (
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/netproxy/httpproxy"
	"github.com/rooted-dev/rooted/backend/webfetch/webfetchtest"
)

// An answer covers the host at the port it was asked about, nothing more: allowed once at one port, the same
// host at another port is a question of its own, and declined there it is refused there while the allowed port
// still goes through, neither asked again. A command that was let reach github.com:443 cannot then reach
// github.com:22 on that answer.
func TestAnswerCoversOnlyThePortAskedAbout(t *testing.T) {
	// Two servers on this machine stand for two ports of one host: the resolver answers both names with the
	// loopback address, so new.example.com at the second site's port reaches the second site.
	web := webfetchtest.New(t, http.HandlerFunc(hello), "new.example.com", "other.example.com")
	port := func(site string) string {
		u, err := url.Parse(web.Sites[site].URL(""))
		if err != nil {
			t.Fatal(err)
		}
		return u.Port()
	}
	first := net.JoinHostPort("new.example.com", port("new.example.com"))
	second := net.JoinHostPort("new.example.com", port("other.example.com"))
	a := &asker{answer: make(chan bool, 1)}
	p, proxy := start(t, httpproxy.Options{Ask: a.ask, AskWait: 10 * time.Second, Resolver: web.Resolver, Exempt: web.Options().Exempt})

	a.answer <- true
	if got := rawConnect(t, proxy, first); got.status != http.StatusOK {
		t.Fatalf("CONNECT %s allowed once: %+v", first, got)
	}
	a.answer <- false
	if got := rawConnect(t, proxy, second); got.status != http.StatusForbidden || !strings.Contains(got.body, "declined by the user") {
		t.Errorf("CONNECT %s, another port of a host allowed once, declined: %+v, want it refused as declined", second, got)
	}
	// Later connections take each port's own answer, without asking again.
	if got := rawConnect(t, proxy, first); got.status != http.StatusOK {
		t.Errorf("CONNECT %s again: %+v, want the allowed port reached", first, got)
	}
	if got := rawConnect(t, proxy, second); got.status != http.StatusForbidden || !strings.Contains(got.body, "declined by the user") {
		t.Errorf("CONNECT %s again: %+v, want the declined port refused", second, got)
	}
	if got := a.hostPorts(); !slices.Equal(got, []string{first, second}) {
		t.Errorf("asked about %v, want %s and then %s, once each", got, first, second)
	}
	if got := p.Declined(); !slices.Equal(got, []string{second}) {
		t.Errorf("Declined() = %v, want %s alone: the host was allowed at its other port", got, second)
	}
}
