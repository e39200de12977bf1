package mcpserver

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rooted-dev/rooted/backend/pdftext/pdftest"
)

// read_file of a PDF answers with one text block: the pages' text as numbered lines, and a word that it came from
// a PDF; the page count is in _meta.
func TestReadFilePDFIsText(t *testing.T) {
	root := project(t)
	if err := os.WriteFile(filepath.Join(root, "doc.pdf"), pdftest.Text(t, "Alpha page.", "Beta page."), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := New(Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, s)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "read_file", Arguments: map[string]any{"path": "doc.pdf"}})
	if err != nil || res.IsError || len(res.Content) != 1 {
		t.Fatalf("read_file: %v %+v", err, res)
	}
	text, ok := res.Content[0].(*mcp.TextContent)
	want := "1\t--- page 1 ---\n2\tAlpha page.\n3\t--- page 2 ---\n4\tBeta page.\n"
	if !ok || !strings.HasPrefix(text.Text, want) || !strings.Contains(text.Text, "text extracted from a PDF of 2 pages") {
		t.Errorf("text block: %#v", res.Content[0])
	}
	meta, _ := res.Meta[ResultMeta].(map[string]any)
	if pdf, _ := meta["pdf"].(map[string]any); pdf["pages"] != float64(2) {
		t.Errorf("_meta: %v", meta)
	}
}
