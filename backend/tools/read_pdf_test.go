package tools

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/pdftext/pdftest"
	"github.com/rooted-dev/rooted/backend/tool"
)

type readPDFResult struct {
	Content   string `json:"content"`
	Size      int64  `json:"size"`
	StartLine int    `json:"start_line"`
	EndLine   int    `json:"end_line"`
	Truncated bool   `json:"truncated"`
	PDF       *struct {
		Pages     int `json:"pages"`
		PagesRead int `json:"pages_read"`
	} `json:"pdf"`
}

// read_file of a PDF returns its pages' text in order, paged by line like a file's, and says it came from a PDF;
// a scan is unsupported_media, a truncated or encrypted file a code of its own, a text file named .pdf stays text.
func TestReadFilePDF(t *testing.T) {
	reg, _, root := openRegistry(t)
	two := pdftest.Text(t, "The first page says hello.", "The second page says goodbye.")
	for name, b := range map[string][]byte{
		"two.pdf": two, "plain.pdf": pdftest.PlainText(t, "Uncompressed text."), "scan.pdf": pdftest.Scan(t),
		"cut.pdf": two[:len(two)/2], "locked.pdf": pdftest.Encrypted(t, "hidden"), "notes.pdf": []byte("not a PDF at all\n"),
	} {
		if err := os.WriteFile(filepath.Join(root, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const whole = "--- page 1 ---\nThe first page says hello.\n--- page 2 ---\nThe second page says goodbye.\n"
	for _, tc := range []struct {
		args, content string
		start, end    int
		truncated     bool
	}{
		{`{"path": "two.pdf"}`, whole, 1, 4, false},
		{`{"path": "two.pdf", "offset": 3}`, "--- page 2 ---\nThe second page says goodbye.\n", 3, 4, false},
		{`{"path": "two.pdf", "limit": 2}`, "--- page 1 ---\nThe first page says hello.\n", 1, 2, true},
		{`{"path": "plain.pdf"}`, "--- page 1 ---\nUncompressed text.\n", 1, 2, false},
		{`{"path": "plain.pdf", "offset": 2}`, "Uncompressed text.\n", 2, 2, false},
	} {
		out, e := call[readPDFResult](t, reg, "read_file", tc.args)
		if e != nil {
			t.Fatalf("%s: %v", tc.args, e)
		}
		if out.Content != tc.content || out.StartLine != tc.start || out.EndLine != tc.end || out.Truncated != tc.truncated || out.PDF == nil || out.PDF.Pages != out.PDF.PagesRead {
			t.Errorf("%s: got %+v %+v; want %q lines %d-%d truncated %v", tc.args, out, out.PDF, tc.content, tc.start, tc.end, tc.truncated)
		}
	}
	out, _ := call[readPDFResult](t, reg, "read_file", `{"path": "two.pdf"}`)
	if out.Size != int64(len(two)) || out.PDF.Pages != 2 {
		t.Errorf("size %d pages %+v; want the file's %d bytes and 2 pages", out.Size, out.PDF, len(two))
	}
	raw, e := reg.Call(context.Background(), "read_file", []byte(`{"path": "two.pdf"}`))
	if e != nil {
		t.Fatal(e)
	}
	if text := reg.TextOf("read_file", raw); !strings.Contains(text, "1\t--- page 1 ---") || !strings.Contains(text, "text extracted from a PDF of 2 pages") {
		t.Errorf("model text:\n%s", text)
	}
	if out, e := call[readPDFResult](t, reg, "read_file", `{"path": "notes.pdf"}`); e != nil || out.PDF != nil || out.Content != "not a PDF at all\n" {
		t.Errorf("a text file named .pdf: %+v %v", out, e)
	}
	for name, code := range map[string]string{
		"scan.pdf": tool.CodeUnsupportedMedia, "cut.pdf": tool.CodeDamagedFile, "locked.pdf": tool.CodeEncryptedFile,
	} {
		_, e := call[readPDFResult](t, reg, "read_file", `{"path": "`+name+`"}`)
		if e == nil || e.Code != code || !strings.Contains(e.Message, name) {
			t.Errorf("%s: got %v; want %s naming the file", name, e, code)
		}
	}
}
