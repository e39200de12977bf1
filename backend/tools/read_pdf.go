package tools

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/rooted-dev/rooted/backend/files"
	"github.com/rooted-dev/rooted/backend/pdftext"
	"github.com/rooted-dev/rooted/backend/tool"
)

// maxPDFFile is the largest PDF read_file extracts text from: the whole file is handed to the parser.
const maxPDFFile = 100 << 20

// pdfOut says a result's text was extracted from a PDF, and from how many of its pages.
type pdfOut struct {
	Pages int `json:"pages"`
	// PagesRead is fewer than Pages when the text reached pdftext.MaxTextBytes before the last page.
	PagesRead int `json:"pages_read"`
}

func (p *pdfOut) appendJSON(dst []byte) []byte {
	dst = append(dst, '{')
	dst = tool.AppendField(dst, "pages", true)
	dst = tool.AppendInt(dst, int64(p.Pages))
	dst = tool.AppendField(dst, "pages_read", false)
	dst = tool.AppendInt(dst, int64(p.PagesRead))
	return append(dst, '}')
}

// isPDF says whether rel under root starts as every PDF does. Only a file that starts "%PDF-" is handed to the
// parser: a file named .pdf that is not one stays text or binary as its bytes say.
func isPDF(root *os.Root, rel string) bool {
	f, err := root.Open(rel)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, len(pdftext.Magic))
	_, err = io.ReadFull(f, head)
	return err == nil && string(head) == pdftext.Magic
}

// readPDF reads rel under root as a PDF: its pages' text, windowed by opt's line range like a text file's. A PDF
// with no text (a scan) is unsupported_media; one that needs a password encrypted_file; one that cannot be parsed
// damaged_file.
func readPDF(ctx context.Context, x *pdftext.Extractor, root *os.Root, rel string, opt files.ReadOptions) (files.Content, *pdfOut, error) {
	f, fi, err := files.OpenRegular(root, "read", rel)
	if err != nil {
		return files.Content{}, nil, err
	}
	defer f.Close()
	if fi.Size() > maxPDFFile {
		return files.Content{}, nil, &files.Error{
			Op: "read", Path: rel, Err: files.ErrTooLarge, Size: fi.Size(),
			Detail: fmt.Sprintf("a PDF of %s, more than the %s read_file extracts text from", files.HumanSize(fi.Size()), files.HumanSize(maxPDFFile)),
		}
	}
	var buf bytes.Buffer
	buf.Grow(int(fi.Size()))
	if _, err := io.Copy(&buf, io.LimitReader(f, maxPDFFile+1)); err != nil {
		return files.Content{}, nil, err
	}
	t, err := x.Extract(ctx, buf.Bytes())
	switch {
	case errors.Is(err, pdftext.ErrEncrypted):
		return files.Content{}, nil, &tool.Error{Code: tool.CodeEncryptedFile, Path: rel, Message: fmt.Sprintf("%s is an encrypted PDF: %v; its text cannot be read without the password", rel, err)}
	case errors.Is(err, pdftext.ErrDamaged):
		return files.Content{}, nil, &tool.Error{Code: tool.CodeDamagedFile, Path: rel, Message: fmt.Sprintf("%s starts like a PDF but cannot be parsed: %v", rel, err)}
	case errors.Is(err, pdftext.ErrTimeout):
		return files.Content{}, nil, &tool.Error{Code: tool.CodeTooLarge, Path: rel, Message: fmt.Sprintf("%s: %v; the PDF is too large or too complex to extract its text", rel, err)}
	case err != nil:
		return files.Content{}, nil, &tool.Error{Code: tool.CodeInternal, Path: rel, Message: fmt.Sprintf("%s: extracting the PDF's text: %v", rel, err)}
	}
	if t.Chars == 0 {
		return files.Content{}, nil, &tool.Error{
			Code: tool.CodeUnsupportedMedia, Path: rel,
			Message: fmt.Sprintf("%s is a PDF of %s with no text to extract: its pages are pictures (a scan?), which read_file does not read", rel, tool.Plural(t.Pages, "page")),
		}
	}
	c := files.Window(t.Text, fi.ModTime(), opt)
	c.Size = fi.Size()
	return c, &pdfOut{Pages: t.Pages, PagesRead: t.Read}, nil
}
