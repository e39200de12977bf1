package httpproxy_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/netproxy/httpproxy"
	"github.com/rooted-dev/rooted/backend/webfetch/webfetchtest"
)

// connectReply is what the proxy answered a raw CONNECT line: its status, the host its refusal names, its body.
type connectReply struct {
	status int
	host   string
	body   string
}

// rawConnect sends target as a CONNECT's request line and Host header, byte for byte as a command could, and
// reads the answer. A tunnel opened (200) is closed at once.
func rawConnect(t *testing.T, proxy *url.URL, target string) connectReply {
	t.Helper()
	r, err := connectRaw(proxy, target)
	if err != nil {
		t.Fatalf("CONNECT %q: %v", target, err)
	}
	return r
}

// connectRaw is rawConnect for a goroutine other than the test's.
func connectRaw(proxy *url.URL, target string) (connectReply, error) {
	conn, err := net.Dial("tcp", proxy.Host)
	if err != nil {
		return connectReply{}, err
	}
	defer conn.Close()
	// The deadline only turns a connection held for good into a failure that says so; it measures no speed.
	if err := conn.SetDeadline(time.Now().Add(30 * time.Second)); err != nil {
		return connectReply{}, err
	}
	fmt.Fprintf(conn, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n", target, target)
	res, err := http.ReadResponse(bufio.NewReader(conn), &http.Request{Method: http.MethodConnect})
	if err != nil {
		return connectReply{}, err
	}
	defer res.Body.Close()
	var b []byte
	if res.StatusCode != http.StatusOK {
		b, _ = io.ReadAll(res.Body)
	}
	return connectReply{res.StatusCode, res.Header.Get("X-Rooted-Refused-Host"), string(b)}, nil
}

// A host that is not a plain name (a wildcard, a look-alike in other scripts, raw or escaped, a direction or line
// separator character, an address with a zone) is refused as it is: never asked about, so the window never
// offers an allow rule for a name other than the one it shows, and named in the refusal escaped to ASCII. Its
// refusal is not one an allow rule could lift. A name already in plain form is asked about.
func TestOnlyPlainHostNamesAreAskedAbout(t *testing.T) {
	a := &asker{answer: make(chan bool)}
	var mu sync.Mutex
	var refusals []*httpproxy.RefusedError
	onRefuse := func(e *httpproxy.RefusedError) {
		mu.Lock()
		defer mu.Unlock()
		refusals = append(refusals, e)
	}
	_, asking := start(t, httpproxy.Options{Ask: a.ask, AskWait: 100 * time.Millisecond, OnRefuse: onRefuse, Resolver: webfetchtest.Resolver{}})
	_, silent := start(t, httpproxy.Options{OnRefuse: onRefuse, Resolver: webfetchtest.Resolver{}})
	for _, target := range []string{
		"*.s3.amazonaws.com:443",
		"*.com:443",
		"g\u0456thub.com:443",   // a Cyrillic і
		"g%D1%96thub.com:443",   // the same, escaped
		"\u202emoc.buhtig:443",  // right-to-left override
		"github.com\u2028x:443", // line separator
		"github.com%0d%0ax:443",
		"[fe80::1%25eth0]:443",
		"localhost:443",
		"under_score.example.com:443",
	} {
		for _, proxy := range []*url.URL{asking, silent} {
			r := rawConnect(t, proxy, target)
			if r.status == http.StatusOK {
				t.Errorf("CONNECT %q: a tunnel was opened", target)
				continue
			}
			if r.status == http.StatusForbidden && !strings.Contains(r.body, "is not a plain host name") {
				t.Errorf("CONNECT %q: %d %q, want a refusal saying it is not a plain host name", target, r.status, r.body)
			}
			for _, c := range r.host + r.body {
				if c > 0x7e || (c < 0x20 && c != '\n') {
					t.Errorf("CONNECT %q: the refusal shows %q, not ASCII", target, r.host+r.body)
					break
				}
			}
		}
	}
	if got := a.hosts(); len(got) != 0 {
		t.Errorf("asked about %q: hosts that are not plain names", got)
	}
	mu.Lock()
	for _, e := range refusals {
		if e.Allowable() {
			t.Errorf("the refusal of %s is offered as one an allow rule lifts", e.Host)
		}
	}
	mu.Unlock()

	// Plain names, an upper case one or one with a trailing dot written as the list compares it, are asked about.
	for _, target := range []string{"xn--gthub-n2e.com:443", "GitHub.com.:443"} {
		if r := rawConnect(t, asking, target); r.status != http.StatusForbidden || !strings.Contains(r.body, "did not answer in time") {
			t.Errorf("CONNECT %q: %d %q, want it asked about and unanswered", target, r.status, r.body)
		}
	}
	if got := a.hosts(); !slices.Equal(got, []string{"xn--gthub-n2e.com", "github.com"}) {
		t.Errorf("asked about %q, want the two plain names", got)
	}
}

// countingResolver is a DNS server the test controls that counts the names it was asked.
type countingResolver struct {
	webfetchtest.Resolver
	lookups atomic.Int32
}

func (r *countingResolver) LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error) {
	r.lookups.Add(1)
	return r.Resolver.LookupNetIP(ctx, network, host)
}

// A host not on the list is asked about without being looked up: a command the user lets reach nothing sends
// nothing out, not even in DNS names. A private address written as such is refused without a question; a name
// the user allows that then resolves to a private address is refused, and the refusal says so.
func TestQuestionsResolveNothing(t *testing.T) {
	r := &countingResolver{Resolver: webfetchtest.Resolver{
		"secret-data.attacker.example": {netip.MustParseAddr("93.184.215.14")},
		"inward.example.com":           {netip.MustParseAddr("10.1.2.3")},
	}}
	a := &asker{answer: make(chan bool, 2)}
	p, proxy := start(t, httpproxy.Options{Ask: a.ask, AskWait: 10 * time.Second, Resolver: r})

	a.answer <- false
	if got := rawConnect(t, proxy, "secret-data.attacker.example:443"); got.status != http.StatusForbidden || !strings.Contains(got.body, "declined") {
		t.Errorf("a declined host: %+v", got)
	}
	if n := r.lookups.Load(); n != 0 {
		t.Errorf("a host the user declined was looked up %d times", n)
	}
	if got := rawConnect(t, proxy, "10.1.2.3:443"); got.status != http.StatusForbidden || !strings.Contains(got.body, "10.1.2.3 resolves to 10.1.2.3, a private address") {
		t.Errorf("a private address: %+v", got)
	}
	if got := a.hosts(); !slices.Equal(got, []string{"secret-data.attacker.example"}) {
		t.Errorf("asked about %q, want only the name", got)
	}

	a.answer <- true
	if got := rawConnect(t, proxy, "inward.example.com:443"); got.status != http.StatusForbidden || !strings.Contains(got.body, "inward.example.com resolves to 10.1.2.3, a private address") {
		t.Errorf("an allowed name resolving inward: %+v", got)
	}
	if got := p.Refused(); !slices.Equal(got, []string{"10.1.2.3", "inward.example.com"}) {
		t.Errorf("Refused() = %v", got)
	}
	if got := p.Unallowable(); !slices.Equal(got, []string{"10.1.2.3", "inward.example.com"}) {
		t.Errorf("Unallowable() = %v, want the hosts no allow rule lets through", got)
	}
	if got := p.Declined(); !slices.Equal(got, []string{"secret-data.attacker.example:443"}) {
		t.Errorf("Declined() = %v", got)
	}
}

// A command that names many hosts at once gets MaxOpenQuestions questions: a connection to yet another host is
// refused at once, telling the model why, until a question is answered.
func TestOpenQuestionsAreCapped(t *testing.T) {
	a := &asker{answer: make(chan bool)}
	p, proxy := start(t, httpproxy.Options{Ask: a.ask, AskWait: time.Hour, Resolver: webfetchtest.Resolver{}})
	held := make(chan struct{}, httpproxy.MaxOpenQuestions)
	for i := range httpproxy.MaxOpenQuestions {
		go func() {
			connectRaw(proxy, fmt.Sprintf("h%d.example.com:443", i))
			held <- struct{}{}
		}()
	}
	for int(a.count.Load()) < httpproxy.MaxOpenQuestions {
		time.Sleep(10 * time.Millisecond)
	}
	got := rawConnect(t, proxy, "one-more.example.com:443")
	if got.status != http.StatusForbidden || !strings.Contains(got.body, "too many hosts asked about at once") {
		t.Errorf("a host beyond the cap: %+v, want a refusal saying too many hosts are asked about", got)
	}
	if n := int(a.count.Load()); n != httpproxy.MaxOpenQuestions {
		t.Errorf("%d questions put, want %d", n, httpproxy.MaxOpenQuestions)
	}
	// One answered, another host can be asked about.
	a.answer <- false
	<-held
	done := make(chan connectReply, 1)
	go func() {
		r, _ := connectRaw(proxy, "one-more.example.com:443")
		done <- r
	}()
	for int(a.count.Load()) <= httpproxy.MaxOpenQuestions {
		time.Sleep(10 * time.Millisecond)
	}
	// The user declines every card until the new host's connection ends; which card an answer reaches is the
	// asker's.
	for r := (connectReply{}); r.status == 0; {
		select {
		case a.answer <- false:
		case r = <-done:
			if !strings.Contains(r.body, "declined") {
				t.Errorf("a host asked about once a question was answered: %+v", r)
			}
		}
	}
	if !slices.Contains(p.Refused(), "one-more.example.com") {
		t.Errorf("Refused() = %v, want the host refused for the cap", p.Refused())
	}
}
