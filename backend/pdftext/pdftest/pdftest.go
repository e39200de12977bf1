// Package pdftest makes the small PDFs Rooted's tests read: pages of text, a scan with no text, an encrypted
// file. Each is generated in memory by a pure-Go writer, so no test depends on a PDF checked in or a tool on the
// machine, and the text a test expects is the text it asked for. It is for tests only.
package pdftest

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"testing"

	"github.com/go-pdf/fpdf"
)

// Text is an A4 PDF with one page for each string, holding that string as one line of text, its streams
// compressed as most PDFs' are.
func Text(tb testing.TB, pages ...string) []byte {
	tb.Helper()
	return text(tb, true, pages)
}

// PlainText is Text with its streams left uncompressed: its first 8000 bytes hold no NUL, so a reader that sniffs
// for binary content takes it for a text file unless it looks at the PDF header.
func PlainText(tb testing.TB, pages ...string) []byte {
	tb.Helper()
	return text(tb, false, pages)
}

func text(tb testing.TB, compressed bool, pages []string) []byte {
	tb.Helper()
	f := fpdf.New("P", "mm", "A4", "")
	f.SetCompression(compressed)
	if !compressed {
		// The default producer is written as UTF-16, whose NULs would make the file binary after all.
		f.SetProducer("FPDF", false)
	}
	f.SetFont("Helvetica", "", 14)
	for _, p := range pages {
		f.AddPage()
		f.Cell(0, 10, p)
	}
	return output(tb, f)
}

// Scan is a one-page PDF holding only a picture, as a scanner makes: there is no text to extract.
func Scan(tb testing.TB) []byte {
	tb.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 64, 64))
	for i := range 64 {
		img.Set(i, i, color.Black)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		tb.Fatal(err)
	}
	f := fpdf.New("P", "mm", "A4", "")
	f.AddPage()
	opt := fpdf.ImageOptions{ImageType: "PNG"}
	f.RegisterImageOptionsReader("scan", opt, &buf)
	f.ImageOptions("scan", 10, 10, 100, 100, false, opt, 0, "")
	return output(tb, f)
}

// Encrypted is a one-page PDF holding text that only the user password "secret" opens.
func Encrypted(tb testing.TB, text string) []byte {
	tb.Helper()
	f := fpdf.New("P", "mm", "A4", "")
	f.SetProtection(fpdf.CnProtectPrint, "secret", "owner")
	f.SetFont("Helvetica", "", 14)
	f.AddPage()
	f.Cell(0, 10, text)
	return output(tb, f)
}

func output(tb testing.TB, f *fpdf.Fpdf) []byte {
	tb.Helper()
	var out bytes.Buffer
	if err := f.Output(&out); err != nil {
		tb.Fatal(err)
	}
	return out.Bytes()
}
