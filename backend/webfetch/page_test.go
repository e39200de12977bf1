package webfetch_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/readerproc/readertest"
	"github.com/rooted-dev/rooted/backend/webfetch"
)

var base = &url.URL{Scheme: "https", Host: "example.com", Path: "/docs/"}

// Text that is UTF-8 and says so (or says nothing) is the page as it is, without rooted-reader: none is on PATH.
func TestPlainTextNeedsNoReader(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	for _, ct := range []string{"text/plain", "application/json; charset=utf-8", "text/markdown; charset=US-ASCII"} {
		title, text, err := webfetch.ReadPage(t.Context(), []byte("\xef\xbb\xbf{\"naïve\": true}"), ct, base, false)
		if err != nil || title != "" || text != `{"naïve": true}` {
			t.Errorf("%s: %q %q %v", ct, title, text, err)
		}
	}
	if _, _, err := webfetch.ReadPage(t.Context(), []byte("caf\xe9"), "text/plain; charset=iso-8859-1", base, false); err == nil {
		t.Error("a Latin-1 page was read without rooted-reader, which decodes it")
	}
}

// Without package pagemd linked (as in rooted-mcp), pages are read in rooted-reader: another charset decoded, and
// HTML's article as Markdown with its title.
func TestReadPageInTheReader(t *testing.T) {
	readertest.Install(t)
	_, text, err := webfetch.ReadPage(t.Context(), []byte("caf\xe9"), "text/plain; charset=iso-8859-1", base, false)
	if err != nil || text != "café" {
		t.Fatalf("a Latin-1 page: %q %v", text, err)
	}
	page := `<html><head><title>Reader notes</title></head><body><nav><a href="/">Home</a></nav><article><h1>Reader notes</h1>
<p>Pages are read <a href="../reader">elsewhere</a>, which keeps the server's start fast for every agent.</p>
<p>And a second paragraph, long enough for readability to call this an article rather than a stray line.</p></article>
<footer>Copyright</footer></body></html>`
	title, text, err := webfetch.ReadPage(t.Context(), []byte(page), "text/html", base, true)
	if err != nil || title != "Reader notes" || !strings.Contains(text, "[elsewhere](https://example.com/reader)") || strings.Contains(text, "Copyright") {
		t.Fatalf("an HTML page: title %q, text %q, %v", title, text, err)
	}
}
