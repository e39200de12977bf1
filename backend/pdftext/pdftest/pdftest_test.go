package pdftest

import (
	"bytes"
	"testing"
)

// What each maker promises its callers, checked on the bytes: a PDF header, the page count, text readable in the
// raw file only when uncompressed, an encryption dictionary only when encrypted. (That the text is extracted as
// given is backend/pdftext's tests.)
func TestMakers(t *testing.T) {
	for _, tc := range []struct {
		name      string
		data      []byte
		pages     int
		plainText string // found in the raw bytes, or "" for none expected
		encrypted bool
	}{
		{"text", Text(t, "Alpha page.", "Beta page."), 2, "", false},
		{"plain text", PlainText(t, "Alpha page.", "Beta page."), 2, "(Alpha page.)", false},
		{"scan", Scan(t), 1, "", false},
		{"encrypted", Encrypted(t, "hidden"), 1, "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !bytes.HasPrefix(tc.data, []byte("%PDF-")) {
				t.Fatalf("no PDF header: %q", tc.data[:min(len(tc.data), 16)])
			}
			if n := bytes.Count(tc.data, []byte("/Type /Page\n")); n != tc.pages {
				t.Errorf("%d page objects, want %d", n, tc.pages)
			}
			if tc.plainText != "" && !bytes.Contains(tc.data, []byte(tc.plainText)) {
				t.Errorf("uncompressed text %q not in the file", tc.plainText)
			}
			if tc.plainText != "" && bytes.IndexByte(tc.data[:min(len(tc.data), 8000)], 0) >= 0 {
				t.Error("a NUL in the first 8000 bytes of an uncompressed PDF")
			}
			if tc.plainText == "" && bytes.Contains(tc.data, []byte("(Alpha page.)")) {
				t.Error("compressed text readable in the raw file")
			}
			if got := bytes.Contains(tc.data, []byte("/Encrypt ")); got != tc.encrypted {
				t.Errorf("encryption dictionary present %v, want %v", got, tc.encrypted)
			}
		})
	}
}
