package pdftext_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"testing"
	"time"

	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"

	"github.com/rooted-dev/rooted/backend/pdftext"
	"github.com/rooted-dev/rooted/backend/pdftext/pdftest"
	"github.com/rooted-dev/rooted/backend/readerproc"
	"github.com/rooted-dev/rooted/backend/readerproc/readertest"
)

// cache is the tests' user cache folder: PDFium compiled once for all of them (seconds, more on a loaded machine).
var cache string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "pdftext-test-")
	if err != nil {
		panic(err)
	}
	cache = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// useReader starts a fresh rooted-reader for the test, with the user's cache folder at cache/rooted (XDG on Linux,
// the home's on macOS, LocalAppData on Windows: what os.UserCacheDir reads).
func useReader(t testing.TB, cache string) {
	exe := readertest.Build(t)
	t.Setenv("XDG_CACHE_HOME", cache)
	t.Setenv("HOME", cache)
	t.Setenv("LocalAppData", cache)
	t.Cleanup(readerproc.UseForTests(exe))
}

// kept lists the compiled code's entries under cache, with their times: wazero's names are 64 hex digits.
func kept(t *testing.T, cache string) map[string]time.Time {
	t.Helper()
	out := map[string]time.Time{}
	_ = filepath.WalkDir(cache, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && hexName.MatchString(d.Name()) {
			if fi, err := d.Info(); err == nil {
				out[p] = fi.ModTime()
			}
		}
		return nil
	})
	return out
}

var hexName = regexp.MustCompile(`^[0-9a-f]{64}$`)

// Without package pdfium linked (as in rooted and rooted-mcp), an Extractor reads in rooted-reader: the same text,
// and the same errors, as in process (package pdfium's tests).
func TestExtractInTheReader(t *testing.T) {
	useReader(t, cache)
	var x pdftext.Extractor
	got, err := x.Extract(t.Context(), pdftest.Text(t, "The first page says <hello> & more.", "The second page says goodbye."))
	if err != nil {
		t.Fatal(err)
	}
	want := "--- page 1 ---\nThe first page says <hello> & more.\n--- page 2 ---\nThe second page says goodbye.\n"
	if got.Text != want || got.Pages != 2 || got.Read != 2 || got.Chars == 0 {
		t.Fatalf("got %+v; want 2 pages, text %q", got, want)
	}
	whole := pdftest.Text(t, "one", "two")
	for _, tc := range []struct {
		name string
		data []byte
		want error
	}{
		{"truncated", whole[:len(whole)/2], pdftext.ErrDamaged},
		{"garbage after the magic", append([]byte("%PDF-1.4\n"), bytes.Repeat([]byte{0xff, 0x00, 'x'}, 4096)...), pdftext.ErrDamaged},
		{"encrypted", pdftest.Encrypted(t, "hidden"), pdftext.ErrEncrypted},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := x.Extract(t.Context(), tc.data)
			if !errors.Is(err, tc.want) {
				t.Fatalf("got %v (text %q); want %v", err, got.Text, tc.want)
			}
		})
	}
	t.Run("past its deadline", func(t *testing.T) {
		// The reader's own deadline: it answers "timeout" (PDFium compiled before the deadline starts), which
		// is ErrTimeout, and serves the next PDF.
		out, err := readerproc.Run(t.Context(), []string{"pdf", "--timeout", "1ns"}, whole, 1<<20)
		var r struct{ Kind, Error string }
		if err != nil || json.Unmarshal(out, &r) != nil || r.Kind != "timeout" {
			t.Fatalf("a PDF past the reader's deadline: %s %v", out, err)
		}
		// The caller's deadline, passed before the call.
		ctx, cancel := context.WithTimeout(t.Context(), time.Nanosecond)
		defer cancel()
		<-ctx.Done()
		if _, err := x.Extract(ctx, whole); !errors.Is(err, pdftext.ErrTimeout) {
			t.Fatalf("got %v; want ErrTimeout", err)
		}
		if got, err := x.Extract(t.Context(), whole); err != nil || got.Pages != 2 {
			t.Fatalf("the next PDF: %+v %v", got, err)
		}
	})
}

// PDFium's compiled code is kept in the user's cache folder and loaded by the next rooted-reader; a cache folder
// that cannot be made is no reason to fail a PDF.
func TestCompiledCodeIsKept(t *testing.T) {
	data := pdftest.Text(t, "kept")
	var first map[string]time.Time
	for i := range 2 {
		useReader(t, cache) // a fresh rooted-reader each time
		var x pdftext.Extractor
		if got, err := x.Extract(t.Context(), data); err != nil || got.Pages != 1 {
			t.Fatalf("reader %d: %+v %v", i, got, err)
		}
		now := kept(t, cache)
		if len(now) == 0 {
			t.Fatalf("reader %d kept nothing under %s", i, cache)
		}
		if i == 1 && !maps.Equal(now, first) {
			t.Fatalf("the second reader compiled again rather than load the first's code: %v, then %v", first, now)
		}
		first = now
	}
	file := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	useReader(t, file) // rooted/pdfium cannot be made under a file
	var x pdftext.Extractor
	if got, err := x.Extract(t.Context(), data); err != nil || got.Pages != 1 {
		t.Fatalf("with no cache folder: %+v %v", got, err)
	}
}

// A reader seals its compiled-code folder before it parses anything (what a hostile input makes of it cannot leave
// code there for the next reader): one whose first request was a page still reads a PDF after it, PDFium compiled
// in memory, and leaves nothing in the folder.
func TestAPDFAfterAPageInOneReader(t *testing.T) {
	if abi, _ := llsys.LandlockGetABIVersion(); runtime.GOOS != "linux" || abi < 1 {
		t.Skip("no Landlock here: the reader cannot seal its folder, and does not say it did")
	}
	dir := t.TempDir()
	useReader(t, dir)
	page := []string{"page", "--url", "https://example.com/", "--content-type", "text/html", "--html"}
	if _, err := readerproc.Run(t.Context(), page, []byte("<html><body><p>A page first.</p></body></html>"), 1<<20); err != nil {
		t.Fatal(err)
	}
	var x pdftext.Extractor
	got, err := x.Extract(t.Context(), pdftest.Text(t, "Then a PDF."))
	if err != nil || got.Pages != 1 || !bytes.Contains([]byte(got.Text), []byte("Then a PDF.")) {
		t.Fatalf("a PDF after a page: %+v %v", got, err)
	}
	if n := kept(t, dir); len(n) != 0 {
		t.Fatalf("the sealed reader wrote compiled code: %v", n)
	}
}

// BenchmarkExtractInReader is one two-page PDF's extraction as the window, rooted and rooted-mcp make it: through
// the serving rooted-reader (confined), once its PDFium is ready. Against BenchmarkExtract (package pdfium, the
// same work in process), the difference is the hop.
func BenchmarkExtractInReader(b *testing.B) {
	useReader(b, cache)
	data := pdftest.Text(b, "The first page says hello.", "The second page says goodbye.")
	var x pdftext.Extractor
	if _, err := x.Extract(b.Context(), data); err != nil { // the reader's start and PDFium's compile, outside the measure
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := x.Extract(b.Context(), data); err != nil {
			b.Fatal(err)
		}
	}
}
