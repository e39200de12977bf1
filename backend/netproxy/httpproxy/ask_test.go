package httpproxy_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/netproxy/httpproxy"
	"github.com/rooted-dev/rooted/backend/webfetch/webfetchtest"
)

// asker answers the proxy's questions as a user would: it records each, then waits for the test's answer.
type asker struct {
	mu      sync.Mutex
	asked   []string  // the hosts
	targets []string  // the same questions as host:port
	answer  chan bool // nil: never answers
	count   atomic.Int32
}

func (a *asker) ask(ctx context.Context, host string, port int) bool {
	a.mu.Lock()
	a.asked = append(a.asked, host)
	a.targets = append(a.targets, net.JoinHostPort(host, strconv.Itoa(port)))
	a.mu.Unlock()
	a.count.Add(1)
	select {
	case yes := <-a.answer:
		return yes
	case <-ctx.Done():
		return false
	}
}

func (a *asker) hosts() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.asked)
}

func (a *asker) hostPorts() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.targets)
}

// A host not on the list, where someone can answer, is asked about once while its connections wait: allowed,
// every waiting connection reaches it, and later ones without asking again; declined, each is refused with a 403
// naming the host and saying the user declined; unanswered within the wait, refused as not on the list. Hosts on
// the list, hosts a rule denies and addresses commands never reach (a private IP) are never asked about.
func TestUnlistedHostIsAskedWhileItsConnectionsWait(t *testing.T) {
	for _, tc := range []struct {
		name     string
		answer   *bool // nil: no answer
		reached  bool
		says     string
		refused  []string
		declined bool // listed by Declined at the port asked about
	}{
		{name: "allowed", answer: ptr(true), reached: true},
		{name: "declined", answer: ptr(false), says: "new.example.com was declined by the user", declined: true},
		{name: "unanswered", says: "was not answered in time", refused: []string{"new.example.com"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			web := webfetchtest.New(t, http.HandlerFunc(hello), "pkg.example.com", "new.example.com", "bad.example.com")
			a := &asker{answer: make(chan bool)}
			p, proxy := start(t, httpproxy.Options{
				Hosts: []string{"pkg.example.com"}, Denied: []string{"bad.example.com"}, Ask: a.ask, AskWait: 2 * time.Second,
				Resolver: web.Resolver, Exempt: web.Options().Exempt,
			})
			c := client(web, []*webfetchtest.Site{web.Sites["pkg.example.com"], web.Sites["new.example.com"]}, proxy)
			if _, err := get(c, web.Sites["pkg.example.com"].URL("/")); err != nil {
				t.Errorf("a listed host: %v", err)
			}
			if _, err := get(c, web.Sites["bad.example.com"].URL("/")); err == nil || !strings.Contains(err.Error(), "denied by a rule") {
				t.Errorf("a host a rule denies: %v", err)
			}
			if _, err := get(c, "https://10.1.2.3/"); err == nil || !strings.Contains(err.Error(), "10.1.2.3 is a private address") {
				t.Errorf("a private address: %v", err)
			}

			const conns = 3
			results := make(chan error, conns)
			for range conns {
				go func() {
					body, err := get(c, web.Sites["new.example.com"].URL("/"))
					if err == nil && !strings.HasPrefix(body, "hello from new.example.com") {
						err = io.ErrUnexpectedEOF
					}
					results <- err
				}()
			}
			// Every connection is held until the one question is answered.
			for a.count.Load() == 0 {
				time.Sleep(10 * time.Millisecond)
			}
			select {
			case err := <-results:
				t.Fatalf("a connection went on before the answer: %v", err)
			case <-time.After(200 * time.Millisecond):
			}
			if tc.answer != nil {
				a.answer <- *tc.answer
			}
			for range conns {
				err := <-results
				if tc.reached && err != nil {
					t.Errorf("an allowed host: %v", err)
				}
				if !tc.reached && (err == nil || !strings.Contains(err.Error(), tc.says)) {
					t.Errorf("want a refusal saying %q, got %v", tc.says, err)
				}
			}
			// A later connection takes the answer without asking again.
			_, err := get(c, web.Sites["new.example.com"].URL("/again"))
			if tc.reached != (err == nil) {
				t.Errorf("a later connection: %v", err)
			}
			if got := a.hosts(); !slices.Equal(got, []string{"new.example.com"}) {
				t.Errorf("asked about %v, want new.example.com once", got)
			}
			if got := p.Refused(); !slices.Equal(got, append([]string{"bad.example.com", "10.1.2.3"}, tc.refused...)) {
				t.Errorf("Refused() = %v", got)
			}
			var declined []string
			if tc.declined {
				declined = a.hostPorts() // the one question, as host:port
			}
			if got := p.Declined(); !slices.Equal(got, declined) {
				t.Errorf("Declined() = %v, want %v", got, declined)
			}
		})
	}
}

// The command's end (its proxy's context) drops a question still waiting: the context the question was put with
// ends, which is what tells the window to take its card down, and the connection held on it is closed rather
// than left hanging. The wait for an answer is far longer than the test, so only the command's end can end it.
func TestCommandEndDropsTheQuestion(t *testing.T) {
	web := webfetchtest.New(t, http.HandlerFunc(hello), "new.example.com")
	asked := make(chan context.Context, 1)
	ask := func(ctx context.Context, host string, _ int) bool {
		asked <- ctx
		<-ctx.Done()
		return false
	}
	s := serve(t, httpproxy.Options{Ask: ask, AskWait: time.Hour, Resolver: web.Resolver, Exempt: web.Options().Exempt})
	c := client(web, []*webfetchtest.Site{web.Sites["new.example.com"]}, s.url)
	got := make(chan error, 1)
	go func() {
		_, err := get(c, web.Sites["new.example.com"].URL("/"))
		got <- err
	}()
	// The timeouts below only turn a hang into a failure that says what hung; they measure no speed.
	const hang = 10 * time.Second
	var question context.Context
	select {
	case question = <-asked:
	case err := <-got:
		t.Fatalf("the connection ended before the question was put: %v", err)
	case <-time.After(hang):
		t.Fatal("the question was never put")
	}
	if err := question.Err(); err != nil {
		t.Fatalf("the question ended before the command did: %v", err)
	}
	s.stop()
	select {
	case <-question.Done():
	case <-time.After(hang):
		t.Fatal("the question still waits for an answer after the command ended: the window would keep showing its card")
	}
	select {
	case err := <-got:
		if err == nil {
			t.Error("the held connection went on after the command ended")
		}
	case <-time.After(hang):
		t.Fatal("the held connection still waits after the command ended")
	}
	if err := s.wait(); err != nil {
		t.Errorf("Serve: %v", err)
	}
}

func ptr[T any](v T) *T { return &v }

// get fetches u and returns its body; a status other than 200 is an error carrying the body.
func get(c *http.Client, u string) (string, error) {
	res, err := c.Get(u)
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return "", err
	}
	if res.StatusCode != http.StatusOK {
		return "", &statusError{res.Status + ": " + string(b)}
	}
	return string(b), nil
}

type statusError struct{ s string }

func (e *statusError) Error() string { return e.s }
