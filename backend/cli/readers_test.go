package cli

// The tests read PDFs and web pages in their own process, as rooted-reader does; the desktop app, rooted and
// rooted-mcp leave both to rooted-reader, which package readerproc's tests run.
import (
	_ "github.com/rooted-dev/rooted/backend/pdftext/pdfium"
	_ "github.com/rooted-dev/rooted/backend/webfetch/pagemd"
)
