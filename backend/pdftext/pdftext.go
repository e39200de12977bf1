// Package pdftext extracts the text of a PDF's pages. The parser is PDFium compiled to WebAssembly and run by
// wazero: a hostile file can at worst make it fail, never reach the process's memory, files or network. Each
// extraction runs in a fresh module instance with no filesystem mounted, a memory ceiling and the caller's
// deadline, so a file built to loop or to balloon ends with an error rather than a hung or exhausted process.
package pdftext

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/klippa-app/go-pdfium"
	pdferrors "github.com/klippa-app/go-pdfium/errors"
	"github.com/klippa-app/go-pdfium/requests"
	"github.com/klippa-app/go-pdfium/webassembly"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
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
	Pages, Read int
	// Text is the pages' text, each page after a "--- page N ---" line.
	Text string
	// Chars counts the non-space characters extracted: zero for a scanned PDF, whose pages are pictures.
	Chars int
}

// Extractor extracts PDFs' text. The WebAssembly module is compiled on first use and the compiled code kept for
// the later ones; the zero value is ready.
type Extractor struct {
	once       sync.Once
	cache      wazero.CompilationCache
	compileErr error
}

// compile fills the cache with the compiled module, outside any file's deadline: compiling PDFium takes seconds
// (more on a loaded machine) whatever the file, and the deadline is for what a file can make the parser do.
func (x *Extractor) compile() {
	x.cache = wazero.NewCompilationCache()
	pool, err := webassembly.Init(x.config(context.Background()))
	if err != nil {
		x.compileErr = err
		return
	}
	x.compileErr = pool.Close()
}

func (x *Extractor) config(ctx context.Context) webassembly.Config {
	return webassembly.Config{
		Context:  ctx,
		MinIdle:  0,
		MaxIdle:  1,
		MaxTotal: 1,
		FSConfig: wazero.NewFSConfig(), // nothing mounted: the parser sees the bytes it is given and no file
		RuntimeConfig: wazero.NewRuntimeConfig().
			WithCoreFeatures(api.CoreFeaturesV2 | experimental.CoreFeaturesExceptionHandling).
			WithMemoryLimitPages(MemoryPages).
			WithCloseOnContextDone(true).
			WithCompilationCache(x.cache),
		Stdout: io.Discard,
		Stderr: io.Discard,
	}
}

// Extract returns the text of the PDF data, page by page.
func (x *Extractor) Extract(ctx context.Context, data []byte) (Text, error) {
	x.once.Do(x.compile)
	if x.compileErr != nil {
		return Text{}, fmt.Errorf("starting the PDF reader: %w", x.compileErr)
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, Timeout)
		defer cancel()
	}
	t, err := x.extract(ctx, data)
	if err != nil && ctx.Err() != nil {
		return Text{}, fmt.Errorf("%w (%v)", ErrTimeout, ctx.Err())
	}
	return t, err
}

func (x *Extractor) extract(ctx context.Context, data []byte) (t Text, err error) {
	// A fresh runtime per extraction: its memory is the file's alone, and closing the context closes the module
	// mid-instruction (WithCloseOnContextDone), which is what bounds a parser stuck in a loop.
	pool, err := webassembly.Init(x.config(ctx))
	if err != nil {
		return t, fmt.Errorf("starting the PDF reader: %w", err)
	}
	defer pool.Close()
	inst, err := pool.GetInstanceWithContext(ctx)
	if err != nil {
		return t, fmt.Errorf("starting the PDF reader: %w", err)
	}
	defer inst.Close()
	return readDoc(inst, data)
}

func readDoc(inst pdfium.Pdfium, data []byte) (t Text, err error) {
	doc, err := inst.OpenDocument(&requests.OpenDocument{File: &data})
	if err != nil {
		return t, classify(err)
	}
	defer inst.FPDF_CloseDocument(&requests.FPDF_CloseDocument{Document: doc.Document})
	n, err := inst.FPDF_GetPageCount(&requests.FPDF_GetPageCount{Document: doc.Document})
	if err != nil {
		return t, classify(err)
	}
	t.Pages = n.PageCount
	var b strings.Builder
	for i := range t.Pages {
		if b.Len() >= MaxTextBytes {
			break
		}
		p, err := inst.GetPageText(&requests.GetPageText{Page: requests.Page{ByIndex: &requests.PageByIndex{Document: doc.Document, Index: i}}})
		if err != nil {
			return Text{}, classify(err)
		}
		text := normalize(p.Text)
		fmt.Fprintf(&b, "--- page %d ---\n", i+1)
		b.WriteString(text)
		if text != "" && !strings.HasSuffix(text, "\n") {
			b.WriteByte('\n')
		}
		t.Read++
		t.Chars += len(strings.Join(strings.Fields(text), ""))
	}
	t.Text = b.String()
	return t, nil
}

// normalize turns PDFium's line breaks (CRLF, lone CR) into LF and drops the NULs and form feeds some files carry,
// so the text reads and pages like a text file's.
func normalize(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.Map(func(r rune) rune {
		switch r {
		case '\r':
			return '\n'
		case 0, '\f':
			return -1
		}
		return r
	}, s)
}

// classify maps PDFium's errors to the package's.
func classify(err error) error {
	switch {
	case errors.Is(err, pdferrors.ErrPassword), errors.Is(err, pdferrors.ErrSecurity):
		return fmt.Errorf("%w: it needs a password to read", ErrEncrypted)
	case errors.Is(err, pdferrors.ErrFormat), errors.Is(err, pdferrors.ErrFile), errors.Is(err, pdferrors.ErrPage):
		return fmt.Errorf("%w: %v", ErrDamaged, err)
	}
	return fmt.Errorf("%w: %v", ErrDamaged, err)
}
