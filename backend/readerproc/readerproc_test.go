package readerproc

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/readerproc/readertest"
)

const article = `<html><head><title>Notes</title></head><body><nav><a href="/">Home</a> <a href="/about">About</a></nav>
<article><h1>Reading in a helper</h1><p>The server keeps its start fast and leaves the parsers to
<a href="/reader">another program</a>, which reads one page after another.</p>
<p>A second paragraph, so that readability takes this for the article it is and not a fragment of one.</p></article>
<footer>Copyright</footer></body></html>`

var pageArgs = []string{"page", "--url", "https://example.com/docs/", "--content-type", "text/html; charset=utf-8", "--html"}

// page asks for the article's Markdown and checks the answer.
func page(t *testing.T) {
	t.Helper()
	out, err := Run(t.Context(), pageArgs, []byte(article), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	var r struct{ Title, Text, Error string }
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("%v: %q", err, out)
	}
	if !strings.Contains(r.Text, "[another program](https://example.com/reader)") || strings.Contains(r.Text, "Copyright") || r.Error != "" {
		t.Fatalf("the page's Markdown: %+v", r)
	}
}

func pid(t *testing.T) int {
	t.Helper()
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if shared.cmd == nil {
		t.Fatal("no rooted-reader is serving")
	}
	return shared.cmd.Process.Pid
}

func stop(t *testing.T) {
	t.Cleanup(func() {
		shared.mu.Lock()
		shared.reset()
		shared.mu.Unlock()
	})
}

// One rooted-reader answers request after request: PDFium's compiled code, once loaded, serves every PDF.
func TestOneReaderServesRequestAfterRequest(t *testing.T) {
	readertest.Install(t)
	stop(t)
	page(t)
	first := pid(t)
	page(t)
	if got := pid(t); got != first {
		t.Fatalf("the second request started rooted-reader %d; the first's, %d, should have served it", got, first)
	}
}

// A reader that has ended (its idle time passed, or it was killed) is replaced by the next request, which is sent
// again rather than failed.
func TestAReaderThatEndedIsReplaced(t *testing.T) {
	readertest.Install(t)
	stop(t)
	page(t)
	first := pid(t)
	shared.mu.Lock()
	_ = shared.cmd.Process.Kill()
	_ = shared.cmd.Wait()
	shared.mu.Unlock()
	page(t)
	if pid(t) == first {
		t.Fatal("the request went to the reader that had ended")
	}
}

// A request that finds the serving reader busy runs a reader of its own rather than waiting.
func TestABusyReaderIsNotWaitedFor(t *testing.T) {
	readertest.Install(t)
	stop(t)
	shared.mu.Lock()
	defer shared.mu.Unlock()
	page(t)
	if shared.cmd != nil {
		t.Fatal("a request made while the reader was busy used it")
	}
}

// An answer over the caller's bound is refused, and the next request gets a clean stream (a fresh reader).
func TestAnAnswerOverTheBound(t *testing.T) {
	readertest.Install(t)
	stop(t)
	if _, err := Run(t.Context(), pageArgs, []byte(article), 10); err == nil || !strings.Contains(err.Error(), "over 10 bytes") {
		t.Fatalf("an answer over 10 bytes: %v", err)
	}
	page(t)
}

// A command rooted-reader refuses is an error that says why, and the reader serves the next request.
func TestUsageErrors(t *testing.T) {
	readertest.Install(t)
	stop(t)
	_, err := Run(t.Context(), []string{"page", "--content-type", "text/html"}, []byte(article), 1<<20)
	if err == nil || !strings.Contains(err.Error(), "exit status 2") || !strings.Contains(err.Error(), "--url") {
		t.Fatalf("a page without --url: %v", err)
	}
	first := pid(t)
	page(t)
	if pid(t) != first {
		t.Fatal("a refused request ended the reader")
	}
}

func TestMissingAndCanceled(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	stop(t)
	if _, err := Run(t.Context(), pageArgs, []byte(article), 1<<20); !errors.Is(err, ErrMissing) {
		t.Fatalf("no rooted-reader anywhere: %v", err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := Run(ctx, pageArgs, []byte(article), 1<<20); !errors.Is(err, context.Canceled) {
		t.Fatalf("a canceled request: %v", err)
	}
}
