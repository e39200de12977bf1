// Package pdfium is pdftext's parser: PDFium compiled to WebAssembly, run by wazero. Linking it registers it
// with pdftext, whose Extractor then reads in this process (rooted-reader, tests).
//
// The compiled module is kept in the user's cache folder (rooted/pdfium) where one can be made, so a new process
// (rooted-reader) loads PDFium's compiled code rather than compiling it again: seconds on a first read, half a
// second after. wazero runs that code natively, so the folder must be one only the user's own programs write:
// Rooted's sandbox (Linux) gives commands no write access to the user's cache folder, unless the user's settings
// make a folder there writable.
package pdfium

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/klippa-app/go-pdfium"
	pdferrors "github.com/klippa-app/go-pdfium/errors"
	"github.com/klippa-app/go-pdfium/requests"
	"github.com/klippa-app/go-pdfium/webassembly"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"

	"github.com/rooted-dev/rooted/backend/pdftext"
)

func init() { pdftext.Register(&shared) }

// shared is the process's one Extractor, which pdftext's Extractors use.
var shared Extractor

// Extractor extracts PDFs' text. The WebAssembly module is compiled on first use and the compiled code kept for
// the later ones, in memory and in the user's cache folder; the zero value is ready.
type Extractor struct {
	once       sync.Once
	cache      wazero.CompilationCache
	compileErr error
}

// compile fills the cache with the compiled module, outside any file's deadline: compiling PDFium takes seconds
// (more on a loaded machine) whatever the file, and the deadline is for what a file can make the parser do. The
// cache is the user's cache folder where it works; a folder that cannot be made or written, or an entry that does
// not load (wazero then fails the compilation), falls back to memory, as before the folder was used.
func (x *Extractor) compile() {
	if dir, err := CacheDir(); err == nil {
		if c, err := wazero.NewCompilationCacheWithDir(dir); err == nil {
			x.cache = c
			if x.compileErr = x.compileInto(); x.compileErr == nil {
				return
			}
			// An entry that does not load would fail every later reader too: the folder goes, and the next
			// reader fills it again.
			_ = os.RemoveAll(dir)
		}
	}
	x.cache = wazero.NewCompilationCache()
	x.compileErr = x.compileInto()
}

// CacheDir is the folder PDFium's compiled code is kept in: rooted/pdfium in the user's cache folder. It may not
// exist yet.
func CacheDir() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "rooted", "pdfium"), nil
}

func (x *Extractor) compileInto() error {
	pool, err := webassembly.Init(x.config(context.Background()))
	if err != nil {
		return err
	}
	return pool.Close()
}

// Prepare compiles PDFium, once (pdftext.Local).
func (x *Extractor) Prepare() error {
	x.once.Do(x.compile)
	if x.compileErr != nil {
		return fmt.Errorf("starting the PDF reader: %w", x.compileErr)
	}
	return nil
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
			WithMemoryLimitPages(pdftext.MemoryPages).
			WithCloseOnContextDone(true).
			WithCompilationCache(x.cache),
		Stdout: io.Discard,
		Stderr: io.Discard,
	}
}

// Extract returns the text of the PDF data, page by page (pdftext.Local).
func (x *Extractor) Extract(ctx context.Context, data []byte) (pdftext.Text, error) {
	if err := x.Prepare(); err != nil {
		return pdftext.Text{}, err
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, pdftext.Timeout)
		defer cancel()
	}
	t, err := x.extract(ctx, data)
	if err != nil && ctx.Err() != nil {
		return pdftext.Text{}, fmt.Errorf("%w (%v)", pdftext.ErrTimeout, ctx.Err())
	}
	return t, err
}

func (x *Extractor) extract(ctx context.Context, data []byte) (t pdftext.Text, err error) {
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

func readDoc(inst pdfium.Pdfium, data []byte) (t pdftext.Text, err error) {
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
		if b.Len() >= pdftext.MaxTextBytes {
			break
		}
		p, err := inst.GetPageText(&requests.GetPageText{Page: requests.Page{ByIndex: &requests.PageByIndex{Document: doc.Document, Index: i}}})
		if err != nil {
			return pdftext.Text{}, classify(err)
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
	t.Text = cut(b.String(), pdftext.MaxTextBytes)
	return t, nil
}

// cut is s in at most n bytes, ending on a whole character: the last page read may run past the cap.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
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
		return fmt.Errorf("%w: it needs a password to read", pdftext.ErrEncrypted)
	case errors.Is(err, pdferrors.ErrFormat), errors.Is(err, pdferrors.ErrFile), errors.Is(err, pdferrors.ErrPage):
		return fmt.Errorf("%w: %v", pdftext.ErrDamaged, err)
	}
	return fmt.Errorf("%w: %v", pdftext.ErrDamaged, err)
}
