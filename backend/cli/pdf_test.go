package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/pdftext/pdftest"
)

// rooted call read_file on a PDF prints its pages' text, and says how many pages the PDF has.
func TestCallReadPDF(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "doc.pdf"), pdftest.Text(t, "Alpha page.", "Beta page."), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := run(t, "", "call", "read_file", "--root", root, `{"path":"doc.pdf"}`)
	if code != ExitOK || !strings.Contains(out, `--- page 1 ---\nAlpha page.\n--- page 2 ---\nBeta page.\n`) || !strings.Contains(out, `"pages": 2`) {
		t.Errorf("read_file of a PDF (exit %d):\n%s", code, out)
	}
}
