package pdftext_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/pdftext"
	"github.com/rooted-dev/rooted/backend/pdftext/pdftest"
	"github.com/rooted-dev/rooted/backend/readerproc"
	"github.com/rooted-dev/rooted/backend/readerproc/readertest"
)

// useReader starts a fresh rooted-reader for the test, with its compiled code kept under cache.
func useReader(t *testing.T, cache string) {
	t.Setenv("XDG_CACHE_HOME", cache)
	t.Cleanup(readerproc.UseForTests(readertest.Build(t)))
}

// Without package pdfium linked (as in rooted and rooted-mcp), an Extractor reads in rooted-reader: the same text,
// and the same errors, as in process (package pdfium's tests).
func TestExtractInTheReader(t *testing.T) {
	useReader(t, t.TempDir())
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
	cache := t.TempDir()
	data := pdftest.Text(t, "kept")
	for i := range 2 {
		useReader(t, cache) // a fresh rooted-reader each time
		var x pdftext.Extractor
		if got, err := x.Extract(t.Context(), data); err != nil || got.Pages != 1 {
			t.Fatalf("reader %d: %+v %v", i, got, err)
		}
		kept, _ := filepath.Glob(filepath.Join(cache, "rooted", "pdfium", "*", "*"))
		if len(kept) == 0 {
			t.Fatalf("reader %d kept nothing under %s", i, cache)
		}
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
