package httpfetch_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/webfetch"
	"github.com/rooted-dev/rooted/backend/webfetch/httpfetch"
	"github.com/rooted-dev/rooted/backend/webfetch/webfetchtest"
)

const article = `<!doctype html><html><head><title>Decoding JSON</title><script>var tracking = "SCRIPT-TEXT";</script></head>
<body><nav><a href="/">Home</a> | <a href="/about">About</a></nav>
<article><h1>Decoding JSON</h1>
<p>The <code>json</code> module decodes a document into Python objects. Call <a href="/library/json.html#loads">loads</a>
with a string, or <code>load</code> with a file. This paragraph is long enough for readability to take it as the
article's text rather than the page's furniture, which is what it is for.</p>
<p>A second paragraph keeps the article well above the length readability wants before it believes a page has one,
so that the test sees the article extracted and the navigation left out.</p>
<pre><code>import json
json.loads('{"a": 1}')</code></pre></article>
<footer>Copyright FOOTER-TEXT</footer></body></html>`

func handler(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	switch r.URL.Path {
	case "/doc":
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, article)
	case "/json":
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"name": "rooted", "ok": true}`)
	case "/text":
		w.Header().Set("Content-Type", "text/plain; charset=iso-8859-1")
		w.Write([]byte("caf\xe9\n"))
	case "/png":
		w.Header().Set("Content-Type", "image/png")
		w.Write([]byte("\x89PNG\r\n\x1a\n"))
	case "/big":
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte(strings.Repeat("x", 2048)))
	case "/redirect":
		http.Redirect(w, r, q.Get("to"), http.StatusFound)
	case "/missing":
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, "no such page")
	default:
		http.NotFound(w, r)
	}
}

func setup(t *testing.T) (*webfetchtest.Web, *httpfetch.Client) {
	t.Helper()
	web := webfetchtest.New(t, http.HandlerFunc(handler), "docs.example.com", "other.example.com")
	web.Resolver["private.example.com"] = []netip.Addr{netip.MustParseAddr("10.1.2.3")}
	web.Resolver["mixed.example.com"] = []netip.Addr{netip.MustParseAddr("93.184.216.34"), netip.MustParseAddr("192.168.0.10")}
	web.Resolver["metadata.example.com"] = []netip.Addr{netip.MustParseAddr("169.254.169.254")}
	web.Resolver["mapped.example.com"] = []netip.Addr{netip.MustParseAddr("::ffff:127.0.0.1")}
	web.Resolver["ec2v6.example.com"] = []netip.Addr{netip.MustParseAddr("fd00:ec2::254")}
	o := web.Options()
	o.MaxBytes = 1024
	return web, httpfetch.New(o)
}

func fetch(t *testing.T, f *httpfetch.Client, raw string, follow func(string) bool) (webfetch.Page, error) {
	t.Helper()
	u, err := webfetch.Parse(raw)
	if err != nil {
		t.Fatalf("parse %s: %v", raw, err)
	}
	return f.Fetch(context.Background(), u, follow)
}

// An HTML page comes back as the Markdown of its article, links absolute, without navigation, footer or scripts;
// the second fetch of it sends no request.
func TestFetchArticleAsMarkdownThenFromCache(t *testing.T) {
	web, f := setup(t)
	f2 := httpfetch.New(web.Options()) // the default cap, for the page
	site := web.Sites["docs.example.com"]
	p, err := fetch(t, f2, site.URL("/doc"), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"`json` module", "[loads](https://docs.example.com:", "```", "json.loads"} {
		if !strings.Contains(p.Content, want) {
			t.Errorf("markdown lacks %q:\n%s", want, p.Content)
		}
	}
	for _, not := range []string{"SCRIPT-TEXT", "<p>", "<code>"} {
		if strings.Contains(p.Content, not) {
			t.Errorf("markdown has %q:\n%s", not, p.Content)
		}
	}
	if p.Title != "Decoding JSON" || p.MediaType != "text/html" || p.Status != 200 || p.Cached {
		t.Errorf("page: %+v", p)
	}
	again, err := fetch(t, f2, site.URL("/doc"), nil)
	if err != nil || !again.Cached || again.Content != p.Content || site.Hits() != 1 {
		t.Fatalf("second fetch: cached=%v hits=%d err=%v", again.Cached, site.Hits(), err)
	}
	_ = f
}

// Text and JSON pass through as they are (text decoded from its charset); other media types are refused.
func TestMediaTypes(t *testing.T) {
	web, f := setup(t)
	site := web.Sites["docs.example.com"]
	if p, err := fetch(t, f, site.URL("/json"), nil); err != nil || p.Content != `{"name": "rooted", "ok": true}` || p.MediaType != "application/json" {
		t.Errorf("json: %+v %v", p, err)
	}
	if p, err := fetch(t, f, site.URL("/text"), nil); err != nil || p.Content != "café\n" {
		t.Errorf("latin-1 text: %q %v", p.Content, err)
	}
	if p, err := fetch(t, f, site.URL("/missing"), nil); err != nil || p.Status != 404 || p.Content != "no such page" {
		t.Errorf("404: %+v %v", p, err)
	}
	var me *webfetch.MediaError
	if _, err := fetch(t, f, site.URL("/png"), nil); !errors.As(err, &me) || me.MediaType != "image/png" {
		t.Errorf("png: %v", err)
	}
	var te *webfetch.TooLargeError
	if _, err := fetch(t, f, site.URL("/big"), nil); !errors.As(err, &te) || te.Limit != 1024 {
		t.Errorf("over the cap: %v", err)
	}
}

// A redirect to another host is not followed unless the caller allows the host: the page says where it leads and
// that host got no request.
func TestRedirectToAnotherHost(t *testing.T) {
	web, f := setup(t)
	docs, other := web.Sites["docs.example.com"], web.Sites["other.example.com"]
	from := docs.URL("/redirect?to=" + url.QueryEscape(other.URL("/json")))
	p, err := fetch(t, f, from, func(string) bool { return false })
	if err != nil || p.RedirectTo != other.URL("/json") || p.Content != "" || other.Hits() != 0 {
		t.Fatalf("refused redirect: %+v hits=%d err=%v", p, other.Hits(), err)
	}
	var asked []string
	p, err = fetch(t, f, from+"&again", func(h string) bool { asked = append(asked, h); return true })
	if err != nil || p.RedirectTo != "" || p.MediaType != "application/json" || other.Hits() != 1 || len(asked) != 1 || asked[0] != "other.example.com" {
		t.Fatalf("allowed redirect: %+v hits=%d asked=%v err=%v", p, other.Hits(), asked, err)
	}
	// The same host redirects without asking.
	asked = nil
	if _, err := fetch(t, f, docs.URL("/redirect?to=/json"), func(h string) bool { asked = append(asked, h); return false }); err != nil || len(asked) != 0 {
		t.Fatalf("same-host redirect: asked %v, %v", asked, err)
	}
}

// Addresses on this machine or its network are refused, whether named literally, through a name that resolves to
// one, or by a redirect; and a redirect to plain http is refused.
func TestRefusedAddresses(t *testing.T) {
	web, f := setup(t)
	docs := web.Sites["docs.example.com"]
	port := netip.MustParseAddrPort(docs.Server.Listener.Addr().String()).Port()
	cases := []struct{ url, reason string }{
		{"http://127.0.0.1/", "loopback"},
		{fmt.Sprintf("https://127.0.0.1:%d/doc", port+1), "loopback"},
		{"http://169.254.169.254/latest/meta-data/", "cloud metadata"},
		{"https://[::1]/", "loopback"},
		{"https://10.0.0.1/", "private"},
		{"https://100.64.0.1/", "shared (carrier-grade NAT)"},
		{"https://0.0.0.0/", "unspecified"},
		{"https://private.example.com/", "private"},
		{"https://mixed.example.com/", "private"},
		{"https://metadata.example.com/", "cloud metadata"},
		{"https://mapped.example.com/", "loopback"},
		{"https://ec2v6.example.com/", "cloud metadata"},
		{docs.URL("/redirect?to=" + url.QueryEscape("https://169.254.169.254/latest")), "cloud metadata"},
		{docs.URL("/redirect?to=" + url.QueryEscape("https://private.example.com/")), "private"},
	}
	for _, c := range cases {
		_, err := fetch(t, f, c.url, func(string) bool { return true })
		var ae *webfetch.AddressError
		if !errors.As(err, &ae) || ae.Reason != c.reason {
			t.Errorf("%s: want refused as %s, got %v", c.url, c.reason, err)
		}
	}
	var se *webfetch.SchemeError
	if _, err := fetch(t, f, docs.URL("/redirect?to="+url.QueryEscape("http://other.example.com/")), func(string) bool { return true }); !errors.As(err, &se) {
		t.Errorf("redirect to http: %v", err)
	}
}

func TestRefusedTable(t *testing.T) {
	for addr, want := range map[string]string{
		"8.8.8.8": "", "2606:4700::1111": "", "93.184.216.34": "",
		"127.0.0.2": "loopback", "::1": "loopback", "::ffff:10.0.0.1": "private", "172.16.5.4": "private",
		"192.168.1.1": "private", "fc00::1": "private", "fe80::1": "link-local", "169.254.1.1": "link-local",
		"169.254.169.254": "cloud metadata", "fd00:ec2::254": "cloud metadata", "100.127.255.255": "shared (carrier-grade NAT)",
		"224.0.0.1": "multicast", "ff02::1": "multicast", "0.0.0.0": "unspecified", "::": "unspecified",
		"255.255.255.255": "non-unicast", "240.0.0.1": "reserved", "64:ff9b::7f00:1": "NAT64", "2002:7f00:1::": "6to4",
		"198.18.0.1": "benchmarking",
	} {
		if got := webfetch.Refused(netip.MustParseAddr(addr)); got != want {
			t.Errorf("Refused(%s) = %q, want %q", addr, got, want)
		}
	}
}

func FuzzRefused(f *testing.F) {
	for _, s := range [][]byte{{127, 0, 0, 1}, {10, 0, 0, 1}, {169, 254, 169, 254}, {8, 8, 8, 8}, netip.MustParseAddr("::ffff:192.168.0.1").AsSlice()} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		a, ok := netip.AddrFromSlice(b)
		if !ok {
			return
		}
		u := a.Unmap()
		if webfetch.Refused(a) == "" && (u.IsLoopback() || u.IsPrivate() || u.IsLinkLocalUnicast() || u.IsMulticast() || u.IsUnspecified()) {
			t.Fatalf("%s passes", a)
		}
	})
}

func TestParse(t *testing.T) {
	for raw, want := range map[string]string{
		"http://Docs.Python.org/3/": "https://docs.python.org/3/", "https://a.example.com/x#frag": "https://a.example.com/x",
	} {
		u, err := webfetch.Parse(raw)
		if err != nil || u.String() != want {
			t.Errorf("Parse(%s) = %v, %v; want %s", raw, u, err, want)
		}
	}
	for _, raw := range []string{"ftp://example.com/", "file:///etc/passwd", "https://user:pw@example.com/", "/relative", "javascript:alert(1)"} {
		if _, err := webfetch.Parse(raw); err == nil {
			t.Errorf("Parse(%s) accepted", raw)
		}
	}
}
