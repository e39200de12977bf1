package files

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"
)

// DefaultMaxBytes is how much a whole-file read may return; larger files must be read by line range.
const DefaultMaxBytes = 1 << 20

// ReadOptions select a line range. Offset is the first line (1-based, 0 means 1); Limit is a line count (0: to the end).
type ReadOptions struct {
	Offset, Limit int
	// MaxBytes caps the returned content; 0 means DefaultMaxBytes.
	MaxBytes int
}

// Content is a file's text, or a line range of it, with line endings exactly as on disk.
type Content struct {
	Text       string `json:"content"`
	Size       int64  `json:"size"`
	TotalLines int    `json:"total_lines"`
	// StartLine and EndLine are the 1-based inclusive range returned (EndLine < StartLine when empty).
	StartLine int `json:"start_line"`
	EndLine   int `json:"end_line"`
	// Truncated is true when lines after EndLine were not returned.
	Truncated bool `json:"truncated"`
	// LineEnding is "lf", "crlf", "mixed" or "none" (no line break at all).
	LineEnding string    `json:"line_ending"`
	ModTime    time.Time `json:"mod_time"`
}

// sniffLen is how much of a file decides whether it is binary (git looks at the first 8000 bytes the same way).
const sniffLen = 8000

// Read returns the text of rel under root. Binary files are refused with ErrBinary; files over MaxBytes with
// ErrTooLarge unless a line range is asked for.
func Read(root *os.Root, rel string, opt ReadOptions) (Content, error) {
	f, fi, err := OpenRegular(root, "read", rel)
	if err != nil {
		return Content{}, err
	}
	defer f.Close()
	maxBytes := opt.MaxBytes
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	ranged := opt.Offset > 1 || opt.Limit > 0
	if !ranged && fi.Size() > int64(maxBytes) {
		return Content{}, &Error{
			Op: "read", Path: rel, Err: ErrTooLarge, Size: fi.Size(),
			Detail: fmt.Sprintf("%s, more than the %s a whole read returns; ask for a line range with offset and limit, for example {\"offset\": 1, \"limit\": 2000}",
				HumanSize(fi.Size()), HumanSize(int64(maxBytes))),
		}
	}
	br := bufio.NewReaderSize(f, 64<<10)
	head, _ := br.Peek(sniffLen)
	if bytes.IndexByte(head, 0) >= 0 {
		return Content{}, &Error{
			Op: "read", Path: rel, Err: ErrBinary, Size: fi.Size(),
			Detail: fmt.Sprintf("%s, looks like %s", HumanSize(fi.Size()), guessType(head)),
		}
	}
	c := Content{Size: fi.Size(), ModTime: fi.ModTime()}
	c.StartLine = max(opt.Offset, 1)
	last := 0 // last line number to keep; 0 means all
	if opt.Limit > 0 {
		last = c.StartLine + opt.Limit - 1
	}
	var out bytes.Buffer
	if !ranged {
		out.Grow(int(fi.Size()))
	}
	var crlf, lf, inLine bool
	var prev byte // last byte of the previous piece, so a CR split from its LF still counts as CRLF
	line := 0
	for {
		// ReadSlice returns a long line in several pieces (ErrBufferFull); inLine counts it once.
		piece, err := br.ReadSlice('\n')
		if n := len(piece); n > 0 {
			if !inLine {
				line++
				inLine = true
			}
			if line >= c.StartLine && (last == 0 || line <= last) && !c.Truncated {
				if out.Len()+n > maxBytes {
					c.Truncated = true
				} else {
					out.Write(piece)
					c.EndLine = line
				}
			}
			if piece[n-1] == '\n' {
				inLine = false
				if (n > 1 && piece[n-2] == '\r') || (n == 1 && prev == '\r') {
					crlf = true
				} else {
					lf = true
				}
			}
			prev = piece[n-1]
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return Content{}, err
		}
	}
	c.TotalLines = line
	if last != 0 && c.TotalLines > last {
		c.Truncated = true
	}
	if c.EndLine == 0 {
		c.EndLine = c.StartLine - 1
	}
	c.Text = out.String()
	switch {
	case crlf && lf:
		c.LineEnding = "mixed"
	case crlf:
		c.LineEnding = "crlf"
	case lf:
		c.LineEnding = "lf"
	default:
		c.LineEnding = "none"
	}
	return c, nil
}

// guessType names a binary file's kind for messages ("a PNG image", "application/zip data").
func guessType(head []byte) string {
	mime := http.DetectContentType(head)
	mime, _, _ = strings.Cut(mime, ";")
	switch {
	case strings.HasPrefix(mime, "image/"):
		return "a " + strings.ToUpper(strings.TrimPrefix(mime, "image/")) + " image"
	case mime == "application/octet-stream":
		switch {
		case bytes.HasPrefix(head, []byte("\x7fELF")):
			return "an ELF executable"
		case bytes.HasPrefix(head, []byte{0xfe, 0xff}) || bytes.HasPrefix(head, []byte{0xff, 0xfe}):
			return "UTF-16 text, which is not supported"
		}
		return "binary data"
	}
	return mime + " data"
}
