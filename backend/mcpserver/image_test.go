package mcpserver

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// read_file of a PNG answers with a text block saying what it is and an image block holding the PNG itself, byte
// for byte; the result's fields in _meta leave the base64 out.
func TestReadFilePNGIsAnImageBlock(t *testing.T) {
	root := project(t)
	img := image.NewRGBA(image.Rect(0, 0, 40, 30))
	img.Set(3, 4, color.RGBA{R: 255, A: 255})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "shot.png"), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := New(Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, s)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "read_file", Arguments: map[string]any{"path": "shot.png"}})
	if err != nil || res.IsError {
		t.Fatalf("read_file: %v %+v", err, res)
	}
	if len(res.Content) != 2 {
		t.Fatalf("want a text and an image block, got %d blocks", len(res.Content))
	}
	text, ok := res.Content[0].(*mcp.TextContent)
	if !ok || !strings.Contains(text.Text, "image/png, 40×30 pixels") {
		t.Errorf("text block: %#v", res.Content[0])
	}
	block, ok := res.Content[1].(*mcp.ImageContent)
	if !ok || block.MIMEType != "image/png" || !bytes.Equal(block.Data, buf.Bytes()) {
		t.Fatalf("image block: %#v", res.Content[1])
	}
	meta, _ := res.Meta[ResultMeta].(map[string]any)
	im, _ := meta["image"].(map[string]any)
	if im["media_type"] != "image/png" || im["width"] != float64(40) || im["data"] != nil {
		t.Errorf("_meta's image: %v", meta)
	}
}
