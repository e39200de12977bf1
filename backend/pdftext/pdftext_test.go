package pdftext

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/pdftext/pdftest"
)

// shared is the tests' one Extractor: compiling PDFium takes seconds (a minute under -race), once.
var shared Extractor

func TestExtract(t *testing.T) {
	got, err := shared.Extract(t.Context(), pdftest.Text(t, "The first page says hello.", "The second page says goodbye."))
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
	got, err := shared.Extract(t.Context(), pdftest.Scan(t))
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
		{"truncated", whole[:len(whole)/2], ErrDamaged},
		{"header only", []byte("%PDF-1.7\n"), ErrDamaged},
		{"garbage after the magic", append([]byte("%PDF-1.4\n"), bytes.Repeat([]byte{0xff, 0x00, 'x'}, 4096)...), ErrDamaged},
		{"encrypted", pdftest.Encrypted(t, "hidden"), ErrEncrypted},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := shared.Extract(t.Context(), tc.data)
			if !errors.Is(err, tc.want) {
				t.Fatalf("got %v (text %q); want %v", err, got.Text, tc.want)
			}
		})
	}
}

// An extraction past its deadline ends with ErrTimeout rather than running on.
func TestExtractDeadline(t *testing.T) {
	x := &shared
	ctx, cancel := context.WithTimeout(t.Context(), time.Nanosecond)
	defer cancel()
	<-ctx.Done()
	_, err := x.Extract(ctx, pdftest.Text(t, "late"))
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("got %v; want ErrTimeout", err)
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
	var x Extractor
	if _, err := x.Extract(b.Context(), data); err != nil { // the compilation, once, outside the measure
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := x.Extract(b.Context(), data); err != nil {
			b.Fatal(err)
		}
	}
}
