package tools

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/tool"
)

type readImageResult struct {
	Size  int64 `json:"size"`
	Image *struct {
		MediaType  string `json:"media_type"`
		Data       string `json:"data"`
		Width      int    `json:"width"`
		Height     int    `json:"height"`
		Bytes      int    `json:"bytes"`
		ScaledFrom string `json:"scaled_from"`
	} `json:"image"`
}

func encodeImage(t *testing.T, format string, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for x := 0; x < w; x += 7 {
		img.Set(x, x%h, color.RGBA{R: uint8(x), G: 200, A: 255})
	}
	var buf bytes.Buffer
	var err error
	switch format {
	case "png":
		err = png.Encode(&buf, img)
	case "jpeg":
		err = jpeg.Encode(&buf, img, nil)
	case "gif":
		err = gif.Encode(&buf, img, nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// PNG, JPEG and GIF files are read as images with their type and size; one over the edge limit is scaled down to
// fit and says what it was; a file that only starts like a PNG is unsupported_media, and other binaries are still
// binary_file.
func TestReadFileImages(t *testing.T) {
	reg, _, root := openRegistry(t)
	files := map[string][]byte{
		"a.png": encodeImage(t, "png", 64, 48), "b.jpg": encodeImage(t, "jpeg", 20, 10), "c.gif": encodeImage(t, "gif", 5, 9),
		"wide.png":   encodeImage(t, "png", 9000, 30),
		"broken.png": append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{0}, 64)...),
		"prog.bin":   append([]byte{0x7f, 'E', 'L', 'F', 0}, bytes.Repeat([]byte{1}, 64)...),
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(root, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, want := range map[string]struct {
		media string
		w, h  int
	}{"a.png": {"image/png", 64, 48}, "b.jpg": {"image/jpeg", 20, 10}, "c.gif": {"image/gif", 5, 9}} {
		out, e := call[readImageResult](t, reg, "read_file", `{"path": "`+name+`"}`)
		if e != nil || out.Image == nil {
			t.Fatalf("%s: %v", name, e)
		}
		data, err := base64.StdEncoding.DecodeString(out.Image.Data)
		if err != nil || out.Size != int64(len(files[name])) || !bytes.Equal(data, files[name]) || out.Image.MediaType != want.media || out.Image.Width != want.w || out.Image.Height != want.h || out.Image.Bytes != len(data) {
			t.Errorf("%s: %+v", name, out.Image)
		}
	}
	out, e := call[readImageResult](t, reg, "read_file", `{"path": "wide.png"}`)
	if e != nil || out.Image == nil || out.Image.Width != scaledEdge || out.Image.Height != 5 || !strings.HasPrefix(out.Image.ScaledFrom, "9000×30") {
		t.Fatalf("wide image: %+v %v", out.Image, e)
	}
	if cfg, err := png.DecodeConfig(base64.NewDecoder(base64.StdEncoding, strings.NewReader(out.Image.Data))); err != nil || cfg.Width != scaledEdge {
		t.Errorf("scaled data: %+v %v", cfg, err)
	}
	if _, e := call[readImageResult](t, reg, "read_file", `{"path": "broken.png"}`); e == nil || e.Code != tool.CodeUnsupportedMedia {
		t.Errorf("broken png: %v", e)
	}
	if _, e := call[readImageResult](t, reg, "read_file", `{"path": "prog.bin"}`); e == nil || e.Code != tool.CodeBinaryFile {
		t.Errorf("binary: %v", e)
	}
	raw, e := reg.Call(t.Context(), "read_file", []byte(`{"path": "a.png"}`))
	if e != nil {
		t.Fatal(e)
	}
	if text := reg.TextOf("read_file", raw); !strings.Contains(text, "a.png: image, image/png, 64×48 pixels") || strings.Contains(text, "iVBOR") {
		t.Errorf("text form: %s", text)
	}
}
