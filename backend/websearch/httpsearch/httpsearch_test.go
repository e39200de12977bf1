package httpsearch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/websearch"
	"github.com/rooted-dev/rooted/backend/websearch/searchtest"
)

func endpoint(t *testing.T, raw string) websearch.Endpoint {
	t.Helper()
	e, err := websearch.ParseEndpoint(raw)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// A SearXNG instance on this machine (the user's own, named in their settings) answers: the query arrives as
// typed, the results come back capped, and the endpoint being loopback is no refusal.
func TestSearchALocalSearXNG(t *testing.T) {
	var results []searchtest.Result
	for i := range 14 {
		results = append(results, searchtest.Result{URL: fmt.Sprintf("https://r%d.example.com/page", i), Title: fmt.Sprintf("Result %d", i), Content: strings.Repeat("word ", 200)})
	}
	sx := searchtest.New(t, results...)
	got, err := New(Options{}).Search(context.Background(), endpoint(t, sx.URL), "os.Root & landlock?")
	if err != nil {
		t.Fatal(err)
	}
	if q := sx.Queries(); len(q) != 1 || q[0] != "os.Root & landlock?" {
		t.Errorf("queries asked: %q", q)
	}
	if len(got) != websearch.MaxResults || got[0].URL != "https://r0.example.com/page" || got[0].Title != "Result 0" || len(got[0].Snippet) > websearch.MaxSnippet {
		t.Errorf("%d results, first %+v", len(got), got[0])
	}
}

// Every way a search fails names the endpoint and says why, as one *websearch.Error: a status (403 with what
// SearXNG needs), a page that is not JSON, an answer over the cap, no answer in time, nothing listening, and a
// redirect to another host, which is not followed; a redirect on the same host is.
func TestSearchFailures(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/missing/search", http.NotFound)
	mux.HandleFunc("/html/search", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<!DOCTYPE html><html><body><form>search</form></body></html>")
	})
	mux.HandleFunc("/huge/search", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"results": [`)
		for range 4000 {
			fmt.Fprintf(w, `{"url": "https://e.example.com/", "title": "%s", "content": "x"},`, strings.Repeat("t", 1000))
		}
		fmt.Fprint(w, `{}]}`)
	})
	block := make(chan struct{})
	t.Cleanup(func() { close(block) })
	mux.HandleFunc("/slow/search", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-block:
		case <-r.Context().Done():
		}
	})
	mux.HandleFunc("/away/search", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://elsewhere.example.com/search?"+r.URL.RawQuery, http.StatusFound)
	})
	mux.HandleFunc("/moved/search", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/ok/search?"+r.URL.RawQuery, http.StatusMovedPermanently)
	})
	mux.HandleFunc("/ok/search", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"results": [{"url": "https://go.dev/", "title": "Go", "content": "moved here"}]}`)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	sx := searchtest.New(t)
	dead := httptest.NewServer(http.NotFoundHandler())
	dead.Close()
	c := New(Options{Timeout: 300 * time.Millisecond, MaxBytes: 1 << 20})
	for _, tc := range []struct {
		name, endpoint string
		status         int
		reason         string
		timeout        bool
	}{
		{"404", srv.URL + "/missing", 404, "HTTP 404 (no search there", false},
		{"json off", sx.URL + "/search?format=html&q={query}", 403, "search.formats", false},
		{"html page", srv.URL + "/html", 200, "an HTML page, not SearXNG's JSON", false},
		{"huge body", srv.URL + "/huge", 200, "larger than 1048576 bytes", false},
		{"timeout", srv.URL + "/slow", 0, "no answer within 300ms", true},
		{"nothing listening", dead.URL, 0, "unreachable", false},
		{"redirect to another host", srv.URL + "/away", 0, "redirects to elsewhere.example.com, another host", false},
		{"same-host redirect", srv.URL + "/moved", 0, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := endpoint(t, tc.endpoint)
			got, err := c.Search(context.Background(), e, "q")
			if tc.reason == "" {
				if err != nil || len(got) != 1 || got[0].Snippet != "moved here" {
					t.Fatalf("%+v, %v", got, err)
				}
				return
			}
			var se *websearch.Error
			if !errors.As(err, &se) {
				t.Fatalf("%v (%T), want a *websearch.Error", err, err)
			}
			if se.Endpoint != tc.endpoint || se.Status != tc.status || se.Timeout != tc.timeout || !strings.Contains(se.Error(), tc.reason) || !strings.Contains(se.Error(), tc.endpoint) {
				t.Errorf("%+v: %v; want status %d, timeout %v, saying %q and naming the endpoint", se, se, tc.status, tc.timeout, tc.reason)
			}
		})
	}
}

// rebinder answers its first lookup of a name with first and every later one with later, as a name whose owner
// re-points it between a search's connections does.
type rebinder struct {
	mu           sync.Mutex
	lookups      int
	first, later netip.Addr
}

func (r *rebinder) LookupNetIP(_ context.Context, _, _ string) ([]netip.Addr, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lookups++
	if r.lookups == 1 {
		return []netip.Addr{r.first}, nil
	}
	return []netip.Addr{r.later}, nil
}

// A search's redirect to its own host goes to the address the search looked up first: an endpoint that re-points
// its name at another address between the answer and the redirect (DNS rebinding, here to 127.0.0.2 standing for
// a service on the user's machine) does not get Rooted to ask that address, and the host is looked up once.
func TestSearchRedirectKeepsTheFirstLookup(t *testing.T) {
	public, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := public.Addr().(*net.TCPAddr).Port
	inside, err := net.Listen("tcp", fmt.Sprintf("127.0.0.2:%d", port))
	if err != nil {
		public.Close()
		t.Fatalf("listening on 127.0.0.2:%d: %v", port, err)
	}
	var insideAsked atomic.Int32
	insideSrv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		insideAsked.Add(1)
		fmt.Fprint(w, `{"results": [{"url": "http://127.0.0.1/secret", "title": "inside", "content": "a local service's answer"}]}`)
	})}
	go insideSrv.Serve(inside)
	t.Cleanup(func() { insideSrv.Close() })
	publicSrv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/search" {
			w.Header().Set("Connection", "close") // the redirect needs a new connection, and so a dial
			http.Redirect(w, r, "/again/search?"+r.URL.RawQuery, http.StatusFound)
			return
		}
		fmt.Fprint(w, `{"results": [{"url": "https://go.dev/", "title": "Go", "content": "from the endpoint"}]}`)
	})}
	go publicSrv.Serve(public)
	t.Cleanup(func() { publicSrv.Close() })

	dns := &rebinder{first: netip.MustParseAddr("127.0.0.1"), later: netip.MustParseAddr("127.0.0.2")}
	c := New(Options{Resolver: dns, Timeout: 5 * time.Second})
	got, err := c.Search(context.Background(), endpoint(t, fmt.Sprintf("http://search.example.com:%d", port)), "q")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Snippet != "from the endpoint" || insideAsked.Load() != 0 {
		t.Errorf("results %+v; the re-pointed address was asked %d times, want 0", got, insideAsked.Load())
	}
	if dns.lookups != 1 {
		t.Errorf("the endpoint's host was looked up %d times in one search, want 1", dns.lookups)
	}
}
