package webfetch_test

import (
	"errors"
	"net/url"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/readerproc"
	"github.com/rooted-dev/rooted/backend/readerproc/readertest"
	"github.com/rooted-dev/rooted/backend/webfetch"
)

var base = &url.URL{Scheme: "https", Host: "example.com", Path: "/docs/"}

// Text that is UTF-8 and says so (or says nothing) is the page as it is, without rooted-reader: a test binary has
// none beside it.
func TestPlainTextNeedsNoReader(t *testing.T) {
	for _, ct := range []string{"text/plain", "application/json; charset=utf-8", "text/markdown; charset=US-ASCII"} {
		title, text, err := webfetch.ReadPage(t.Context(), []byte("\xef\xbb\xbf{\"naïve\": true}"), ct, base, false)
		if err != nil || title != "" || text != `{"naïve": true}` {
			t.Errorf("%s: %q %q %v", ct, title, text, err)
		}
	}
	if _, _, err := webfetch.ReadPage(t.Context(), []byte("caf\xe9"), "text/plain; charset=iso-8859-1", base, false); !errors.Is(err, readerproc.ErrMissing) {
		t.Errorf("a Latin-1 page without rooted-reader, which decodes it: %v", err)
	}
}

// Without package pagemd linked (as in rooted-mcp), pages are read in rooted-reader: another charset decoded, and
// HTML's article as Markdown with its title.
func TestReadPageInTheReader(t *testing.T) {
	t.Cleanup(readerproc.UseForTests(readertest.Build(t)))
	_, text, err := webfetch.ReadPage(t.Context(), []byte("caf\xe9"), "text/plain; charset=iso-8859-1", base, false)
	if err != nil || text != "café" {
		t.Fatalf("a Latin-1 page: %q %v", text, err)
	}
	page := `<html><head><title>Reader notes</title></head><body><nav><a href="/">Home</a></nav><article><h1>Reader notes</h1>
<p>Pages are read <a href="../reader">elsewhere</a>, which keeps the server's start fast for every agent &amp; <code>a &lt; b</code>.</p>
<p>And a second paragraph, long enough for readability to call this an article rather than a stray line.</p></article>
<footer>Copyright</footer></body></html>`
	title, text, err := webfetch.ReadPage(t.Context(), []byte(page), "text/html", base, true)
	if err != nil || title != "Reader notes" || !strings.Contains(text, "[elsewhere](https://example.com/reader)") || !strings.Contains(text, "agent & `a < b`") || strings.Contains(text, "Copyright") {
		t.Fatalf("an HTML page: title %q, text %q, %v", title, text, err)
	}
}
