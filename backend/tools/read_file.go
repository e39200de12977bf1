package tools

import (
	"context"
	"crypto/sha256"
	_ "embed"
	"os"
	"strings"
	"time"
	"unsafe"

	"github.com/rooted-dev/rooted/backend/files"
	"github.com/rooted-dev/rooted/backend/pdftext"
	"github.com/rooted-dev/rooted/backend/session"
	"github.com/rooted-dev/rooted/backend/tool"
)

//go:embed read_file.md
var readFileDoc string

type readFileIn struct {
	Path   string `json:"path" jsonschema:"file to read, relative to the working directory or absolute inside the project" tool:"nonempty"`
	Offset int    `json:"offset,omitempty" jsonschema:"first line to return, 1-based (default 1)" tool:"min=1"`
	Limit  int    `json:"limit,omitempty" jsonschema:"number of lines to return (default: to the end)" tool:"min=1"`
}

type readFileOut struct {
	Path   string `json:"path"`
	Exists bool   `json:"exists"`
	files.Content
	// Limit is the limit the call asked for (0: none): the text form shows at most readWindow lines unless the
	// call asked for more.
	Limit int `json:"limit,omitempty"`
	// Img is the file as an image, for a PNG, JPEG, GIF or WebP (the text fields are then empty).
	Img *imageOut `json:"image,omitempty"`
	// PDF is set when the content is the text extracted from a PDF's pages (read_pdf.go).
	PDF *pdfOut `json:"pdf,omitempty"`
}

func readFile(d Deps) *tool.Tool {
	pdf := new(pdftext.Extractor) // in rooted-reader, confined (in this process in tests)
	return tool.New(tool.Def{
		Name: "read_file", Title: "Read file", Description: readFileDoc,
		TextCarries: []string{"content"}, ReadOnly: true, Examples: []string{`{"path": "README.md"}`, `{"path": "big.log", "offset": 2001, "limit": 500}`},
	}, func(ctx context.Context, in readFileIn) (readFileOut, error) {
		defer d.Lane.Foreground()() // someone waits for it: other workspaces' searches pause (sched.Lane.Pace)
		t, err := d.Session.Resolve(in.Path)
		if err != nil {
			return readFileOut{}, err
		}
		c, err := files.Read(t.Root, t.Rel, files.ReadOptions{Offset: in.Offset, Limit: in.Limit})
		if err != nil && isImageCandidate(err) {
			// Not text: an image is returned as one, for the model to see (read_image.go).
			if im, ok, ierr := readImage(t.Root, t.Rel); ok {
				if ierr != nil {
					return readFileOut{}, ierr
				}
				// The file's size and time as for text; its lines are none.
				c := files.Content{Size: im.originalBytes, ModTime: im.modTime}
				return readFileOut{Path: t.Slash(), Exists: true, Content: c, Img: &im}, nil
			}
		}
		if looksPDF(t.Root, t.Rel, c, err) {
			// A PDF's bytes are not its text: its pages' text is returned instead, paged like a file's lines.
			opt := files.ReadOptions{Offset: in.Offset, Limit: in.Limit}
			pc, po, perr := readPDF(ctx, pdf, t.Root, t.Rel, opt)
			if perr != nil {
				return readFileOut{}, perr
			}
			if !tool.IsUser(ctx) {
				// Seen by size and time only: a hash of the text would not be the file's.
				d.Session.Saw(tool.Conversation(ctx), t, session.Version{Size: pc.Size, ModTime: pc.ModTime})
			}
			return readFileOut{Path: t.Slash(), Exists: true, Content: pc, Limit: in.Limit, PDF: po}, nil
		}
		if err != nil {
			return readFileOut{}, err
		}
		v := session.Version{Size: c.Size, ModTime: c.ModTime}
		if c.StartLine == 1 && !c.Truncated {
			// The whole file: a touch without a change is not staleness. The hash reads the text where it is
			// rather than from a copy of it (a megabyte for a large read); nothing writes to it.
			v.Sum = sha256.Sum256(unsafe.Slice(unsafe.StringData(c.Text), len(c.Text)))
		}
		if !tool.IsUser(ctx) {
			d.Session.Saw(tool.Conversation(ctx), t, v)
		}
		return readFileOut{Path: t.Slash(), Exists: true, Content: c, Limit: in.Limit}, nil
	})
}

// AppendJSON encodes the result without encoding/json's per-byte escaping of the content; TestReadFileJSON checks
// it decodes exactly as json.Marshal's output does.
func (r readFileOut) AppendJSON(dst []byte) []byte {
	if dst == nil {
		dst = make([]byte, 0, len(r.Text)+len(r.Text)/8+512) // most text needs few escapes: one allocation
	}
	return r.appendJSON(dst, true)
}

// AppendStructured is AppendJSON without the content, which the text form carries (TextCarries): MCP's
// structuredContent, built without encoding the content at all.
func (r readFileOut) AppendStructured(dst []byte) []byte {
	return r.appendJSON(dst, false)
}

func (r readFileOut) appendJSON(dst []byte, content bool) []byte {
	dst = append(dst, '{')
	dst = tool.AppendField(dst, "path", true)
	dst = tool.AppendString(dst, r.Path)
	dst = tool.AppendField(dst, "exists", false)
	dst = tool.AppendBool(dst, r.Exists)
	if content {
		dst = tool.AppendField(dst, "content", false)
		dst = tool.AppendString(dst, r.Text)
	}
	dst = tool.AppendField(dst, "size", false)
	dst = tool.AppendInt(dst, r.Size)
	dst = tool.AppendField(dst, "total_lines", false)
	dst = tool.AppendInt(dst, int64(r.TotalLines))
	dst = tool.AppendField(dst, "total_lines_known", false)
	dst = tool.AppendBool(dst, r.TotalLinesKnown)
	dst = tool.AppendField(dst, "start_line", false)
	dst = tool.AppendInt(dst, int64(r.StartLine))
	dst = tool.AppendField(dst, "end_line", false)
	dst = tool.AppendInt(dst, int64(r.EndLine))
	dst = tool.AppendField(dst, "truncated", false)
	dst = tool.AppendBool(dst, r.Truncated)
	dst = tool.AppendField(dst, "line_ending", false)
	dst = tool.AppendString(dst, r.LineEnding)
	dst = tool.AppendField(dst, "mod_time", false)
	dst = append(dst, '"')
	dst = r.ModTime.AppendFormat(dst, time.RFC3339Nano)
	dst = append(dst, '"')
	if r.Limit > 0 {
		dst = tool.AppendField(dst, "limit", false)
		dst = tool.AppendInt(dst, int64(r.Limit))
	}
	if r.Img != nil {
		dst = tool.AppendField(dst, "image", false)
		dst = r.Img.appendJSON(dst, content)
	}
	if r.PDF != nil {
		dst = tool.AppendField(dst, "pdf", false)
		dst = r.PDF.appendJSON(dst)
	}
	return append(dst, '}')
}

// looksPDF says whether a read that gave c and err is of a PDF: a binary file, or one whose text (from its first
// line, or else its first bytes) starts "%PDF-". A PDF with no NUL in its first 8000 bytes passes for text.
func looksPDF(root *os.Root, rel string, c files.Content, err error) bool {
	switch {
	case err != nil:
		return isImageCandidate(err) && isPDF(root, rel)
	case c.StartLine == 1 && c.EndLine >= 1:
		return strings.HasPrefix(c.Text, pdftext.Magic)
	case c.Size >= int64(len(pdftext.Magic)):
		return isPDF(root, rel)
	}
	return false
}
