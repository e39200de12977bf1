package httpfetch_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/webfetch"
	"github.com/rooted-dev/rooted/backend/webfetch/httpfetch"
	"github.com/rooted-dev/rooted/backend/webfetch/webfetchtest"
)

// page1MB is an HTML page of about 1 MB: a documentation page's shape (headings, paragraphs with links and code,
// code blocks, a navigation bar and a footer).
func page1MB() string {
	var b strings.Builder
	b.WriteString(`<!doctype html><html><head><title>Reference</title></head><body><nav>` + strings.Repeat(`<a href="/x">Section</a> `, 50) + `</nav><main><article><h1>Reference</h1>`)
	for i := 0; b.Len() < 1<<20; i++ {
		fmt.Fprintf(&b, `<h2 id="s%d">Section %d</h2><p>The function <code>f%d</code> takes a <a href="/types#t%d">value</a> and returns it, `+
			`changed as the paragraph above says, with the error of the call when there is one; see <em>also</em> the notes.</p>`+
			`<pre><code>result, err := f%d(value)
if err != nil {
	return err
}</code></pre><ul><li>one</li><li>two</li></ul>`, i, i, i, i, i)
	}
	b.WriteString(`</article></main><footer>Footer</footer></body></html>`)
	return b.String()
}

// BenchmarkFetch1MB fetches a 1 MB HTML page from a local TLS server and turns it into Markdown: connection (kept
// alive between iterations, as a session's fetcher keeps it), transfer, readability and the Markdown conversion.
// Every iteration asks for a new URL, so none is served from the cache.
func BenchmarkFetch1MB(b *testing.B) {
	page := page1MB()
	web := webfetchtest.New(b, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, page)
	}), "docs.example.com")
	f := httpfetch.New(web.Options())
	site := web.Sites["docs.example.com"]
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		u, err := webfetch.Parse(site.URL(fmt.Sprintf("/ref?i=%d", i)))
		if err != nil {
			b.Fatal(err)
		}
		p, err := f.Fetch(context.Background(), u, nil)
		if err != nil || p.Cached || !strings.Contains(p.Content, "## Section 1") {
			b.Fatalf("fetch: cached=%v %v %.200q", p.Cached, err, p.Content)
		}
	}
}
