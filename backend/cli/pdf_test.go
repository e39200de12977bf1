package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-pdf/fpdf"
)

// rooted call read_file on a PDF prints its pages' text, and says how many pages the PDF has.
func TestCallReadPDF(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	root := t.TempDir()
	f := fpdf.New("P", "mm", "A4", "")
	f.SetFont("Helvetica", "", 14)
	for _, p := range []string{"Alpha page.", "Beta page."} {
		f.AddPage()
		f.Cell(0, 10, p)
	}
	var buf bytes.Buffer
	if err := f.Output(&buf); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "doc.pdf"), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := run(t, "", "call", "read_file", "--root", root, `{"path":"doc.pdf"}`)
	if code != ExitOK || !strings.Contains(out, `--- page 1 ---\nAlpha page.\n--- page 2 ---\nBeta page.\n`) || !strings.Contains(out, `"pages": 2`) {
		t.Errorf("read_file of a PDF (exit %d):\n%s", code, out)
	}
}
