package cli

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// rooted call read_file on an image says what it is (path, type, pixels, bytes) and leaves the base64 out; a
// web_fetch from a domain no rule allows is refused, with the rule that would allow it.
func TestCallImageAndFetch(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	root := t.TempDir()
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, 12, 7))); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "icon.png"), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := run(t, "", "call", "read_file", "--root", root, `{"path":"icon.png"}`)
	if code != ExitOK || !strings.Contains(out, `"media_type": "image/png"`) || !strings.Contains(out, `"width": 12`) || strings.Contains(out, `"data"`) {
		t.Errorf("read_file of a PNG (exit %d):\n%s", code, out)
	}
	code, out, _ = run(t, "", "call", "web_fetch", "--root", root, `{"url":"https://docs.example.com/"}`)
	if code != ExitToolError || !strings.Contains(out, `"code": "permission_denied"`) || !strings.Contains(out, `\"domain\": \"docs.example.com\"`) {
		t.Errorf("web_fetch without a rule (exit %d):\n%s", code, out)
	}
}
