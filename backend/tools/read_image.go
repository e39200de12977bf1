package tools

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"image"
	_ "image/gif" // GIF for image.Decode
	"image/jpeg"
	"image/png"
	"io"
	"os"
	"time"

	"golang.org/x/image/draw"
	"golang.org/x/image/webp"

	"github.com/rooted-dev/rooted/backend/files"
	"github.com/rooted-dev/rooted/backend/tool"
)

// Limits of an image read_file returns: what every provider accepts (Anthropic's 5 MB of base64 a picture, and
// 8000 pixels a side; 1568 pixels on the long edge is the size it scales to anyway). A larger image is scaled down
// to fit; one over maxImageFile is refused before it is decoded.
const (
	maxImageBytes = 3_750_000 // 5 MB once base64-encoded
	maxImageEdge  = 8000
	scaledEdge    = 1568
	maxImageFile  = 50 << 20
)

// imageOut is read_file's result for an image.
type imageOut struct {
	MediaType string `json:"media_type,omitempty"`
	// Data is the image, base64-encoded, as it is sent (scaled down when it was over the limits).
	Data   string `json:"data,omitempty"`
	Width  int    `json:"width,omitempty"`
	Height int    `json:"height,omitempty"`
	// Bytes is the size of the image sent; ScaledFrom, when it was scaled down, what the file was.
	Bytes         int    `json:"bytes"`
	ScaledFrom    string `json:"scaled_from,omitempty"`
	raw           []byte
	originalBytes int64
	modTime       time.Time
}

// appendJSON encodes the image, with its data or (for the structured form, which MCP sends beside an image block)
// without.
func (im *imageOut) appendJSON(dst []byte, data bool) []byte {
	dst = append(dst, '{')
	dst = tool.AppendField(dst, "media_type", true)
	dst = tool.AppendString(dst, im.MediaType)
	if data {
		dst = tool.AppendField(dst, "data", false)
		dst = tool.AppendString(dst, im.Data)
	}
	dst = tool.AppendField(dst, "width", false)
	dst = tool.AppendInt(dst, int64(im.Width))
	dst = tool.AppendField(dst, "height", false)
	dst = tool.AppendInt(dst, int64(im.Height))
	dst = tool.AppendField(dst, "bytes", false)
	dst = tool.AppendInt(dst, int64(im.Bytes))
	if im.ScaledFrom != "" {
		dst = tool.AppendField(dst, "scaled_from", false)
		dst = tool.AppendString(dst, im.ScaledFrom)
	}
	return append(dst, '}')
}

// Image is the image for the faces that send one (tool.Imager).
func (r readFileOut) Image() (string, []byte, bool) {
	if r.Img == nil {
		return "", nil, false
	}
	if r.Img.raw == nil { // a result read back from its JSON
		raw, err := base64.StdEncoding.DecodeString(r.Img.Data)
		if err != nil {
			return "", nil, false
		}
		r.Img.raw = raw
	}
	return r.Img.MediaType, r.Img.raw, true
}

// imageText is the text form of an image result: what it is, for a model (which gets the image beside it) and a
// reader of the CLI.
func (r readFileOut) imageText() string {
	im := r.Img
	s := fmt.Sprintf("%s: image, %s, %d×%d pixels, %s", r.Path, im.MediaType, im.Width, im.Height, files.HumanSize(int64(im.Bytes)))
	if im.ScaledFrom != "" {
		s += " (scaled down from " + im.ScaledFrom + ")"
	}
	return s + "; the image itself is attached"
}

// sniffImage says which image format head (a file's first bytes) starts, by magic number: "" for none of the four.
func sniffImage(head []byte) string {
	switch {
	case bytes.HasPrefix(head, []byte("\x89PNG\r\n\x1a\n")):
		return "image/png"
	case bytes.HasPrefix(head, []byte{0xff, 0xd8, 0xff}):
		return "image/jpeg"
	case bytes.HasPrefix(head, []byte("GIF87a")), bytes.HasPrefix(head, []byte("GIF89a")):
		return "image/gif"
	case len(head) >= 12 && string(head[:4]) == "RIFF" && string(head[8:12]) == "WEBP":
		return "image/webp"
	}
	return ""
}

// readImage reads rel under root as an image, or reports ok false when it is not one of the four formats.
func readImage(root *os.Root, rel string) (out imageOut, ok bool, err error) {
	f, err := root.Open(rel)
	if err != nil {
		return out, false, err
	}
	defer f.Close()
	head := make([]byte, 16)
	n, _ := io.ReadFull(f, head)
	media := sniffImage(head[:n])
	if media == "" {
		return out, false, nil
	}
	fi, err := f.Stat()
	if err != nil {
		return out, true, err
	}
	if fi.Size() > maxImageFile {
		return out, true, &files.Error{
			Op: "read", Path: rel, Err: files.ErrTooLarge, Size: fi.Size(),
			Detail: fmt.Sprintf("an image of %s, more than the %s read_file scales down", files.HumanSize(fi.Size()), files.HumanSize(maxImageFile)),
		}
	}
	raw, err := io.ReadAll(io.MultiReader(bytes.NewReader(head[:n]), f))
	if err != nil {
		return out, true, err
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(raw))
	if media == "image/webp" && err != nil {
		cfg, err = webp.DecodeConfig(bytes.NewReader(raw))
	}
	if err != nil {
		return out, true, &tool.Error{Code: tool.CodeUnsupportedMedia, Path: rel, Message: fmt.Sprintf("%s looks like %s but cannot be decoded: %v", rel, media, err)}
	}
	out = imageOut{MediaType: media, Width: cfg.Width, Height: cfg.Height, raw: raw, originalBytes: int64(len(raw)), modTime: fi.ModTime()}
	if len(raw) > maxImageBytes || max(cfg.Width, cfg.Height) > maxImageEdge {
		if out, err = scaleDown(out, rel); err != nil {
			return out, true, err
		}
	}
	out.Data, out.Bytes = base64.StdEncoding.EncodeToString(out.raw), len(out.raw)
	return out, true, nil
}

// scaleDown fits an image within scaledEdge pixels on its long edge: PNG for a PNG or GIF (sharp edges, text in
// screenshots), JPEG for a photo format. One still over the limits is too_large.
func scaleDown(in imageOut, rel string) (imageOut, error) {
	var src image.Image
	var err error
	if in.MediaType == "image/webp" {
		src, err = webp.Decode(bytes.NewReader(in.raw))
	} else {
		src, _, err = image.Decode(bytes.NewReader(in.raw))
	}
	if err != nil {
		return in, &tool.Error{Code: tool.CodeUnsupportedMedia, Path: rel, Message: fmt.Sprintf("%s cannot be decoded to scale it down: %v", rel, err)}
	}
	w, h := in.Width, in.Height
	if w >= h {
		w, h = scaledEdge, max(1, h*scaledEdge/w)
	} else {
		w, h = max(1, w*scaledEdge/h), scaledEdge
	}
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.CatmullRom.Scale(dst, dst.Bounds(), src, src.Bounds(), draw.Src, nil)
	var buf bytes.Buffer
	out := in
	if in.MediaType == "image/png" || in.MediaType == "image/gif" {
		out.MediaType, err = "image/png", png.Encode(&buf, dst)
	} else {
		out.MediaType, err = "image/jpeg", jpeg.Encode(&buf, dst, &jpeg.Options{Quality: 85})
	}
	if err != nil {
		return in, err
	}
	if buf.Len() > maxImageBytes {
		return in, &files.Error{
			Op: "read", Path: rel, Err: files.ErrTooLarge, Size: in.originalBytes,
			Detail: fmt.Sprintf("an image still %s once scaled to %d×%d, more than the %s a model accepts", files.HumanSize(int64(buf.Len())), w, h, files.HumanSize(maxImageBytes)),
		}
	}
	out.ScaledFrom = fmt.Sprintf("%d×%d, %s", in.Width, in.Height, files.HumanSize(in.originalBytes))
	out.Width, out.Height, out.raw = w, h, buf.Bytes()
	return out, nil
}

// isImageCandidate says whether a read's failure may be an image's: a binary file, or one too large for text.
func isImageCandidate(err error) bool {
	return errors.Is(err, files.ErrBinary) || errors.Is(err, files.ErrTooLarge)
}
