package websearch

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"
)

// The endpoint setting: a SearXNG address becomes its /search page with q and format=json; a template takes the
// query escaped where {query} stands; anything that is not an http(s) URL with a host, or that would put the
// query in the host or credentials in every error, is refused with why.
func TestParseEndpoint(t *testing.T) {
	const q = "go 1.26 & os.Root?"
	for _, c := range []struct {
		raw, want, host, err string
	}{
		{raw: "https://searx.example.org", want: "https://searx.example.org/search?format=json&q=go+1.26+%26+os.Root%3F", host: "searx.example.org"},
		{raw: " http://localhost:8888/ ", want: "http://localhost:8888/search?format=json&q=go+1.26+%26+os.Root%3F", host: "localhost:8888"},
		{raw: "http://10.0.0.5/searxng/search", want: "http://10.0.0.5/searxng/search?format=json&q=go+1.26+%26+os.Root%3F", host: "10.0.0.5"},
		{raw: "https://s.example.org/api?query={query}&fmt=searx", want: "https://s.example.org/api?query=go+1.26+%26+os.Root%3F&fmt=searx", host: "s.example.org"},
		{raw: "http://127.0.0.1:9/q/{query}.json", want: "http://127.0.0.1:9/q/go+1.26+%26+os.Root%3F.json", host: "127.0.0.1:9"},
		{raw: "", err: "no search endpoint"},
		{raw: "searx.example.org", err: "not an http:// or https:// URL"},
		{raw: "ftp://searx.example.org", err: "not an http:// or https:// URL"},
		{raw: "file:///etc/passwd", err: "not an http:// or https:// URL"},
		{raw: "https:///search", err: "has no host"},
		{raw: "https://me:secret@searx.example.org", err: "user name or password"},
		{raw: "https://{query}.example.org/", err: "in its host"},
		{raw: "https://searx.example.org/search?q=x", err: "query string"},
		{raw: "https://searx.example.org/#top", err: "fragment"},
	} {
		e, err := ParseEndpoint(c.raw)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: %v, want an error saying %q", c.raw, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.raw, err)
			continue
		}
		if got := e.URL(q); got != c.want {
			t.Errorf("%q: URL %s, want %s", c.raw, got, c.want)
		}
		if e.Host() != c.host {
			t.Errorf("%q: host %q, want %q", c.raw, e.Host(), c.host)
		}
	}
}

// Whatever the query, the URL asked is the endpoint's host and path: the query is a value, never more URL.
func FuzzEndpointURLKeepsHostAndPath(f *testing.F) {
	for _, s := range []string{"x", "a/../../admin", "@evil.example", "#frag", "?q=1&format=html", "%2F%2e%2e", "\x00\r\n", "{query}"} {
		f.Add(s)
	}
	base, _ := ParseEndpoint("http://127.0.0.1:8888/searx")
	tmpl, _ := ParseEndpoint("https://s.example.org/api/{query}?x=1")
	f.Fuzz(func(t *testing.T, q string) {
		for _, e := range []Endpoint{base, tmpl} {
			u, err := url.Parse(e.URL(q))
			if err != nil {
				t.Fatalf("%q: %v", q, err)
			}
			want, _ := url.Parse(e.URL("x"))
			if u.Host != want.Host || u.Scheme != want.Scheme || u.User != nil || u.Fragment != "" {
				t.Fatalf("%q: %s, want host %s", q, u, want.Host)
			}
			if e.template {
				seg, ok := strings.CutPrefix(u.EscapedPath(), "/api/")
				if !ok || strings.Contains(seg, "/") || u.Query().Get("x") != "1" || len(u.Query()) != 1 {
					t.Errorf("%q: the query left its place in the template: %s", q, u)
				}
				continue
			}
			if u.Path != want.Path || u.Query().Get("q") != q || u.Query().Get("format") != "json" || len(u.Query()) != 2 {
				t.Errorf("%q: %s reads back as path %s, q %q, format %q", q, u, u.Path, u.Query().Get("q"), u.Query().Get("format"))
			}
		}
	})
}

// Decode keeps SearXNG's url, title and content as url, title and snippet, at most MaxResults, each on one line
// and cut to its cap at a character boundary; results without an http(s) URL are left out; anything else than the
// JSON object is an error saying what it is.
func TestDecode(t *testing.T) {
	type r = map[string]any
	many := []r{}
	for i := range 25 {
		many = append(many, r{"url": fmt.Sprintf("https://e%d.example.com/", i), "title": "t", "content": "c"})
	}
	long := strings.Repeat("é", MaxSnippet)
	for _, c := range []struct {
		name    string
		body    any
		n       int
		first   Result
		problem string
	}{
		{name: "one", body: r{"results": []r{{"url": "https://go.dev/doc", "title": "Docs\n  Go", "content": "The  Go\tdocs", "engine": "x"}}}, n: 1, first: Result{Title: "Docs Go", URL: "https://go.dev/doc", Snippet: "The Go docs"}},
		{name: "capped", body: r{"results": many}, n: MaxResults, first: Result{Title: "t", URL: "https://e0.example.com/", Snippet: "c"}},
		{name: "no usable url", body: r{"results": []r{{"url": "javascript:alert(1)", "title": "x"}, {"title": "no url"}, {"url": 5}, {"url": "/relative"}, {"url": "http://ok.example.com", "title": 7}}}, n: 1, first: Result{URL: "http://ok.example.com"}},
		{name: "long snippet", body: r{"results": []r{{"url": "https://a.example.com", "title": strings.Repeat("t", 999), "content": long}}}, n: 1},
		{name: "none", body: r{"results": []r{}}, n: 0},
		{name: "no results field", body: r{"error": "engines down"}, problem: "JSON without a results array"},
		{name: "html", body: "<!DOCTYPE html><html><body>SearXNG</body></html>", problem: "an HTML page"},
		{name: "text", body: "Too Many Requests", problem: "not JSON"},
		{name: "empty", body: "", problem: "empty"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var body []byte
			if s, ok := c.body.(string); ok {
				body = []byte(s)
			} else {
				body, _ = json.Marshal(c.body)
			}
			got, err := Decode(body)
			if c.problem != "" {
				if err == nil || !strings.Contains(err.Error(), c.problem) {
					t.Fatalf("%v, want an error saying %q", err, c.problem)
				}
				return
			}
			if err != nil || len(got) != c.n {
				t.Fatalf("%d results, %v; want %d", len(got), err, c.n)
			}
			for _, res := range got {
				if len(res.Title) > MaxTitle || len(res.Snippet) > MaxSnippet || !utf8.ValidString(res.Snippet) || !utf8.ValidString(res.Title) {
					t.Errorf("over a cap or cut mid-character: title %d bytes, snippet %d bytes", len(res.Title), len(res.Snippet))
				}
			}
			if c.name == "long snippet" && (!strings.HasSuffix(got[0].Snippet, "…") || len(got[0].Snippet) < MaxSnippet-3) {
				t.Errorf("a long snippet is not cut near its cap with …: %d bytes", len(got[0].Snippet))
			}
			if c.first != (Result{}) && got[0] != c.first {
				t.Errorf("first: %+v, want %+v", got[0], c.first)
			}
		})
	}
}
