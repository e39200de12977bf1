package pdfium

import (
	"bytes"
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/pdftext"
	"github.com/rooted-dev/rooted/backend/pdftext/pdftest"
)

// The tests extract through pdftext's Extractor, as rooted-reader does: linking this package makes it read in
// this process, with the one shared Extractor (compiling PDFium takes seconds, a minute under -race, once).
var x pdftext.Extractor

// TestMain keeps the tests' compiled PDFium out of the user's cache folder.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "pdfium-test-")
	if err != nil {
		panic(err)
	}
	for _, v := range []string{"XDG_CACHE_HOME", "HOME", "LocalAppData"} { // os.UserCacheDir on Linux, macOS, Windows
		os.Setenv(v, dir)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func TestExtract(t *testing.T) {
	got, err := x.Extract(t.Context(), pdftest.Text(t, "The first page says hello.", "The second page says goodbye."))
	if err != nil {
		t.Fatal(err)
	}
	want := "--- page 1 ---\nThe first page says hello.\n--- page 2 ---\nThe second page says goodbye.\n"
	if got.Text != want || got.Pages != 2 || got.Read != 2 {
		t.Fatalf("got %d pages (%d read), text %q; want 2 pages, text %q", got.Pages, got.Read, got.Text, want)
	}
	if got.Chars == 0 {
		t.Fatal("a PDF with text counted no characters")
	}
}

func TestExtractScanned(t *testing.T) {
	got, err := x.Extract(t.Context(), pdftest.Scan(t))
	if err != nil {
		t.Fatal(err)
	}
	if got.Pages != 1 || got.Chars != 0 {
		t.Fatalf("an image-only PDF: %d pages, %d characters (%q); want 1 page and none", got.Pages, got.Chars, got.Text)
	}
}

func TestExtractRefused(t *testing.T) {
	whole := pdftest.Text(t, "one", "two")
	for _, tc := range []struct {
		name string
		data []byte
		want error
	}{
		{"truncated", whole[:len(whole)/2], pdftext.ErrDamaged},
		{"header only", []byte("%PDF-1.7\n"), pdftext.ErrDamaged},
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
}

// An extraction past its deadline ends with pdftext.ErrTimeout rather than running on.
func TestExtractDeadline(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), time.Nanosecond)
	defer cancel()
	<-ctx.Done()
	_, err := x.Extract(ctx, pdftest.Text(t, "late"))
	if !errors.Is(err, pdftext.ErrTimeout) {
		t.Fatalf("got %v; want pdftext.ErrTimeout", err)
	}
}

// The text stops at MaxTextBytes, on a whole character, however long the last page read.
func TestCut(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{{"abc", 3, "abc"}, {"abcd", 3, "abc"}, {"aé", 2, "a"}, {"aé", 3, "aé"}, {"日本", 4, "日"}, {"日本", 2, ""}} {
		if got := cut(tc.s, tc.n); got != tc.want {
			t.Errorf("cut(%q, %d) = %q; want %q", tc.s, tc.n, got, tc.want)
		}
	}
}

func TestNormalize(t *testing.T) {
	if got := normalize("a\r\nb\rc\x00\fd"); got != "a\nb\ncd" {
		t.Fatalf("normalize: %q", got)
	}
}

// BenchmarkExtract is one two-page PDF's extraction once the module is compiled: a fresh instance each time.
func BenchmarkExtract(b *testing.B) {
	data := pdftest.Text(b, "The first page says hello.", "The second page says goodbye.")
	if _, err := x.Extract(b.Context(), data); err != nil { // the compilation, once, outside the measure
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := x.Extract(b.Context(), data); err != nil {
			b.Fatal(err)
		}
	}
}
