// Package pdftext extracts the text of a PDF's pages. The parser is PDFium compiled to WebAssembly and run by
// wazero (package pdfium): a hostile file can at worst make it fail, never reach the process's memory, files or
// network. Each extraction runs in a fresh module instance with no filesystem mounted, a memory ceiling and the
// caller's deadline, so a file built to loop or to balloon ends with an error rather than a hung or exhausted
// process.
//
// This package is the light half, which rooted, rooted-mcp and the desktop app link: the limits, the errors, and
// an Extractor that reads in this process when the binary links package pdfium (which registers itself: in
// rooted-reader and tests), and otherwise in rooted-reader (readerproc), which confines itself before it reads, so
// that PDFium's 9 MiB and its runtime cost nothing to a process that never reads a PDF, and a PDF is never parsed
// in a process that holds the user's files.
package pdftext

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/rooted-dev/rooted/backend/readerproc"
)

// Limits of one extraction.
const (
	// Timeout bounds an extraction whose context has no earlier deadline.
	Timeout = 30 * time.Second
	// MemoryPages is the WebAssembly memory ceiling in 64 KiB pages (512 MiB): PDFium's heap cannot grow past it.
	MemoryPages = 8192
	// MaxTextBytes stops extraction once this much text is collected (the pages after it are not read).
	MaxTextBytes = 16 << 20
)

// Errors an extraction returns, wrapped with the detail.
var (
	// ErrEncrypted is a PDF that needs a password.
	ErrEncrypted = errors.New("the PDF is encrypted")
	// ErrDamaged is a file PDFium cannot parse as a PDF.
	ErrDamaged = errors.New("the PDF is damaged or not a PDF")
	// ErrTimeout is an extraction that ran past its deadline.
	ErrTimeout = errors.New("extracting the PDF's text took too long")
)

// Magic is how every PDF file starts.
const Magic = "%PDF-"

// Text is a PDF's extracted text.
type Text struct {
	// Pages is the number of pages in the document; Read how many of them were read (fewer when MaxTextBytes
	// stopped the extraction).
	Pages int `json:"pages"`
	Read  int `json:"read"`
	// Text is the pages' text, each page after a "--- page N ---" line: at most MaxTextBytes.
	Text string `json:"text"`
	// Chars counts the non-space characters extracted: zero for a scanned PDF, whose pages are pictures.
	Chars int `json:"chars"`
}

// Local is a parser in this process (package pdfium's).
type Local interface {
	// Prepare compiles the parser, once: seconds, whatever the file, so outside any file's deadline.
	Prepare() error
	// Extract prepares, then extracts within ctx's deadline or, without one, Timeout; its errors are the package's.
	Extract(ctx context.Context, data []byte) (Text, error)
}

var local Local

// Register makes every Extractor read in this process with l. Package pdfium calls it when it is linked; it is not
// safe to call once extractions have begun.
func Register(l Local) { local = l }

// Prepare compiles the parser in this process, once (rooted-reader, before it gives up writing its cache folder).
func Prepare() error {
	if local == nil {
		return errors.New("this program does not link PDFium")
	}
	return local.Prepare()
}

// Extractor extracts PDFs' text; the zero value is ready.
type Extractor struct{}

// Extract returns the text of the PDF data, page by page: in this process when package pdfium is linked, else in
// rooted-reader.
func (*Extractor) Extract(ctx context.Context, data []byte) (Text, error) {
	if local != nil {
		return local.Extract(ctx, data)
	}
	return Remote(ctx, data)
}

// reply is rooted-reader's answer to "pdf": the text, or the error with its kind.
type reply struct {
	Text  *Text  `json:"text,omitempty"`
	Error string `json:"error,omitempty"`
	Kind  string `json:"kind,omitempty"` // "encrypted", "damaged", "timeout", or "" for any other failure
}

var kinds = []struct {
	name string
	err  error
}{{"encrypted", ErrEncrypted}, {"damaged", ErrDamaged}, {"timeout", ErrTimeout}}

// maxReply bounds rooted-reader's answer: MaxTextBytes of text, each byte at most 6 in JSON (a control
// character's escape), and the frame.
const maxReply = 6*MaxTextBytes + 64<<10

// margin is how much sooner than the caller's deadline rooted-reader is told to stop: it then answers "timeout"
// itself, and stays to serve the next PDF, rather than being killed at the deadline.
const margin = 250 * time.Millisecond

// Remote extracts in rooted-reader, whatever this binary links. Its deadline is ctx's, less margin (rooted-reader
// is killed when ctx ends), else Timeout from when PDFium is compiled.
func Remote(ctx context.Context, data []byte) (Text, error) {
	args := []string{"pdf"}
	if d, ok := ctx.Deadline(); ok {
		args = append(args, "--timeout", strconv.FormatInt(max(time.Until(d)-margin, time.Millisecond).Milliseconds(), 10)+"ms")
	}
	out, err := readerproc.Run(ctx, args, data, maxReply)
	if err != nil {
		if ctx.Err() != nil {
			return Text{}, fmt.Errorf("%w (%v)", ErrTimeout, ctx.Err())
		}
		return Text{}, fmt.Errorf("starting the PDF reader: %w", err)
	}
	var r reply
	if err := json.Unmarshal(out, &r); err != nil || (r.Text == nil && r.Error == "") {
		return Text{}, fmt.Errorf("starting the PDF reader: %s answered %d bytes that are not its reply", readerproc.Name, len(out))
	}
	if r.Error != "" {
		for _, k := range kinds {
			if k.name == r.Kind {
				return Text{}, kindError{k.err, r.Error}
			}
		}
		return Text{}, errors.New(r.Error)
	}
	return *r.Text, nil
}

// kindError is an error rooted-reader reported: its message whole, and the package error it is.
type kindError struct {
	kind error
	msg  string
}

func (e kindError) Error() string { return e.msg }
func (e kindError) Unwrap() error { return e.kind }

// Serve is rooted-reader's "pdf": it prepares the parser, then extracts data in this process by timeout from now
// when it is not zero, and returns the reply Remote reads. The binary must link package pdfium.
func Serve(ctx context.Context, data []byte, timeout time.Duration) ([]byte, error) {
	if local == nil {
		return nil, errors.New("this program does not link PDFium")
	}
	// The deadline is the caller's (sent as timeout), which runs from the request, compilation included; PDFium
	// compiles whatever the deadline, and is kept for the next PDF.
	deadline := time.Now().Add(timeout)
	var r reply
	if err := local.Prepare(); err != nil {
		r.Error = fmt.Sprintf("starting the PDF reader: %v", err)
		return marshal(r)
	}
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, deadline)
		defer cancel()
	}
	t, err := local.Extract(ctx, data)
	if err != nil {
		r.Error = err.Error()
		for _, k := range kinds {
			if errors.Is(err, k.err) {
				r.Kind = k.name
				break
			}
		}
		return marshal(r)
	}
	r.Text = &t
	return marshal(r)
}

// marshal is JSON without HTML's escapes (<, > and & would take 6 bytes each).
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
