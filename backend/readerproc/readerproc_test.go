package readerproc

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

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

// use starts the test with a fresh rooted-reader built from this tree.
func use(t *testing.T) {
	t.Cleanup(UseForTests(readertest.Build(t)))
}

// One rooted-reader answers request after request: PDFium's compiled code, once loaded, serves every PDF.
func TestOneReaderServesRequestAfterRequest(t *testing.T) {
	use(t)
	page(t)
	first := pid(t)
	page(t)
	if got := pid(t); got != first {
		t.Fatalf("the second request started rooted-reader %d; the first's, %d, should have served it", got, first)
	}
}

// A reader that has ended between requests (its idle time passed, or it was killed) is replaced by the next
// request.
func TestAReaderThatEndedIsReplaced(t *testing.T) {
	use(t)
	page(t)
	first := pid(t)
	shared.mu.Lock()
	_ = shared.cmd.Process.Kill()
	<-shared.done
	shared.mu.Unlock()
	page(t)
	if pid(t) == first {
		t.Fatal("the request went to the reader that had ended")
	}
}

// A request that finds the serving reader busy runs a reader of its own rather than waiting.
func TestABusyReaderIsNotWaitedFor(t *testing.T) {
	use(t)
	shared.mu.Lock()
	defer shared.mu.Unlock()
	type result struct {
		out []byte
		err error
	}
	got := make(chan result, 1)
	go func() {
		out, err := Run(t.Context(), pageArgs, []byte(article), 1<<20)
		got <- result{out, err}
	}()
	select {
	case r := <-got:
		if r.err != nil || !strings.Contains(string(r.out), "another program") {
			t.Fatalf("a request while the reader was busy: %s %v", r.out, r.err)
		}
	case <-time.After(time.Minute):
		t.Fatal("a request while the reader was busy waited for it")
	}
	if shared.cmd != nil {
		t.Fatal("a request made while the reader was busy used it")
	}
}

// An answer over the caller's bound is refused, and the next request gets a clean stream (a fresh reader).
func TestAnAnswerOverTheBound(t *testing.T) {
	use(t)
	if _, err := Run(t.Context(), pageArgs, []byte(article), 10); err == nil || !strings.Contains(err.Error(), "over 10 bytes") {
		t.Fatalf("an answer over 10 bytes: %v", err)
	}
	page(t)
}

// A command rooted-reader refuses is an error that says why, and the reader serves the next request.
func TestUsageErrors(t *testing.T) {
	use(t)
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

// rooted-reader is the one beside the running program, never one on PATH; a test binary has none beside it.
func TestMissingAndCanceled(t *testing.T) {
	t.Setenv("PATH", filepath.Dir(readertest.Build(t))) // one on PATH, which must not be run
	if _, err := Run(t.Context(), pageArgs, []byte(article), 1<<20); !errors.Is(err, ErrMissing) {
		t.Fatalf("no rooted-reader beside the test binary, one on PATH: %v", err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := Run(ctx, pageArgs, []byte(article), 1<<20); !errors.Is(err, context.Canceled) {
		t.Fatalf("a canceled request: %v", err)
	}
}

// fake is a rooted-reader that does what script says, and counts in a file how many times it was started.
func fake(t *testing.T, script string) (count func() int) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake reader is a shell script")
	}
	dir := t.TempDir()
	starts := filepath.Join(dir, "starts")
	exe := filepath.Join(dir, Name)
	if err := os.WriteFile(exe, []byte("#!/bin/sh\necho >> '"+starts+"'\n"+script+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(UseForTests(exe))
	return func() int {
		b, _ := os.ReadFile(starts)
		return strings.Count(string(b), "\n")
	}
}

// A request is sent again only when the reader had ended by itself (exit status 0, as at the end of its idle
// time): one that died on the request, as a parser crashing on a hostile page would, is not given it twice.
func TestSentAgainOnlyToAReaderThatEndedByItself(t *testing.T) {
	count := fake(t, "exit 0")
	if _, err := Run(t.Context(), pageArgs, []byte(article), 1<<20); err == nil {
		t.Fatal("a reader that never answers answered")
	}
	if n := count(); n != 2 {
		t.Fatalf("a reader that ended by itself: started %d times; want 2 (the request sent again once)", n)
	}
	count = fake(t, "read line; echo 'panic: the parser fell over' >&2; exit 2")
	_, err := Run(t.Context(), pageArgs, []byte(article), 1<<20)
	if err == nil || !strings.Contains(err.Error(), "the parser fell over") {
		t.Fatalf("a reader that died on the request: %v; want its stderr in the error", err)
	}
	if n := count(); n != 1 {
		t.Fatalf("a reader that died on the request: started %d times; want 1", n)
	}
}
