package pdftext_test

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/pdftext"
	"github.com/rooted-dev/rooted/backend/pdftext/pdftest"
	"github.com/rooted-dev/rooted/backend/readerproc/readertest"
)

// Without package pdfium linked (as in rooted and rooted-mcp), an Extractor reads in rooted-reader: the same text,
// and the same errors, as in process (package pdfium's tests).
func TestExtractInTheReader(t *testing.T) {
	readertest.Install(t)
	var x pdftext.Extractor
	got, err := x.Extract(t.Context(), pdftest.Text(t, "The first page says hello.", "The second page says goodbye."))
	if err != nil {
		t.Fatal(err)
	}
	want := "--- page 1 ---\nThe first page says hello.\n--- page 2 ---\nThe second page says goodbye.\n"
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
		ctx, cancel := context.WithTimeout(t.Context(), time.Nanosecond)
		defer cancel()
		<-ctx.Done()
		if _, err := x.Extract(ctx, whole); !errors.Is(err, pdftext.ErrTimeout) {
			t.Fatalf("got %v; want ErrTimeout", err)
		}
	})
}
