// Command rooted-reader reads what comes from outside a project with parsers too large for rooted and rooted-mcp
// to link (package readerproc). They run "rooted-reader serve" and send it requests, one after another: a JSON
// line naming the command and its flags, then the input's bytes; the answer is a JSON line, then the command's
// output. The commands, also runnable directly with the input on stdin:
//
//	rooted-reader pdf [--timeout D]                      a PDF's text, page by page (pdftext.Serve)
//	rooted-reader page --url U --content-type T [--html] a page's text, an HTML page as Markdown (webfetch.ServePage)
//
// A failure to read the input is the reply's error, with exit code 0; exit code 2 is bad usage, 1 a failure to
// read stdin or write the reply. serve ends when its stdin closes, or after readerproc.Idle without a request.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/rooted-dev/rooted/backend/pdftext"
	"github.com/rooted-dev/rooted/backend/pdftext/pdfium" // PDFium, registered with pdftext
	"github.com/rooted-dev/rooted/backend/readerproc"
	"github.com/rooted-dev/rooted/backend/sandbox"
	"github.com/rooted-dev/rooted/backend/webfetch"
	_ "github.com/rooted-dev/rooted/backend/webfetch/pagemd" // readability and Markdown, registered with webfetch
)

// maxInput bounds a request's input: more than any PDF read_file reads or any page web_fetch keeps.
const maxInput = 1 << 30

func main() {
	closeInherited()
	if err := confine(); err != nil {
		fmt.Fprintf(os.Stderr, "rooted-reader: %v\n", err)
		os.Exit(1)
	}
	confined = true
	if len(os.Args) == 2 && os.Args[1] == "serve" {
		// The replies go to the real stdout alone: a library that prints (html-to-markdown warns with
		// fmt.Println) writes to stderr instead, rather than into a reply frame. A signal ends it, as by default.
		out := os.Stdout
		os.Stdout = os.Stderr
		os.Exit(serve(context.Background(), os.Stdin, out, os.Stderr, readerproc.Idle, func() { os.Exit(0) }))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := 2
	if in, err := io.ReadAll(io.LimitReader(os.Stdin, maxInput)); err != nil {
		fmt.Fprintf(os.Stderr, "rooted-reader: reading stdin: %v\n", err)
		code = 1
	} else {
		code = run(ctx, os.Args[1:], in, os.Stdout, os.Stderr)
	}
	stop()
	os.Exit(code)
}

// cacheDir is PDFium's compiled-code folder, when it could be made.
var cacheDir []string

// confine gives up, before the first byte of input, what the parsers never need (sandbox.ConfineSelf, which says
// exactly what is left): every file of the user's but PDFium's compiled-code folder, the network, other processes,
// and root's capabilities. A hostile PDF or page that found a way out of PDFium's WebAssembly or the Go parsers
// would find no file of the user's to read or change, and no socket to send anything through; seal takes the
// folder's writes back before anything is parsed.
func confine() error {
	if dir, err := pdfium.CacheDir(); err == nil && os.MkdirAll(dir, 0o700) == nil {
		cacheDir = []string{dir}
	}
	return sandbox.ConfineSelf(cacheDir)
}

var (
	confined bool // main confined this process: seal then seals it (tests call run and serve unconfined)
	sealOnce sync.Once
)

// seal gives up writing the compiled-code folder before the first input is parsed, PDFium's code in it by then
// when that input is a PDF (sandbox.SealSelf): what a hostile input makes of this process cannot leave code there
// for the next reader to run. A reader whose first request is a page keeps PDFium's later compile in memory. It
// ends the process when it cannot seal.
func seal(pdf bool) {
	if !confined {
		return
	}
	sealOnce.Do(func() {
		if pdf {
			_ = pdftext.Prepare() // a failure is Serve's to report, to the request
		}
		if err := sandbox.SealSelf(cacheDir); err != nil {
			fmt.Fprintf(os.Stderr, "rooted-reader: %v\n", err)
			os.Exit(1)
		}
	})
}

// run runs one command on in.
func run(ctx context.Context, args []string, in []byte, stdout, stderr io.Writer) int {
	if len(args) == 0 || (args[0] != "pdf" && args[0] != "page") {
		fmt.Fprintln(stderr, "usage: rooted-reader pdf [--timeout D] | page --url U --content-type T [--html] | serve (input on stdin)")
		return 2
	}
	fs := flag.NewFlagSet("rooted-reader "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	timeout := fs.Duration("timeout", 0, "the PDF's deadline (default: pdftext.Timeout from when PDFium is ready)")
	rawURL := fs.String("url", "", "the page's address, which its links are made absolute against")
	contentType := fs.String("content-type", "", "the page's Content-Type header")
	html := fs.Bool("html", false, "the page is HTML: return its article as Markdown")
	if err := fs.Parse(args[1:]); err != nil || fs.NArg() > 0 {
		return 2
	}
	// The caller's deadline runs from the request, PDFium's first compile (in seal) included.
	if *timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *timeout)
		defer cancel()
	}
	seal(args[0] == "pdf")
	var reply []byte
	var err error
	if args[0] == "pdf" {
		reply, err = pdftext.Serve(ctx, in, 0)
	} else {
		base, perr := url.Parse(*rawURL)
		if perr != nil || base.Host == "" {
			fmt.Fprintf(stderr, "rooted-reader page: --url %q is not an absolute URL\n", *rawURL)
			return 2
		}
		reply, err = webfetch.ServePage(in, *contentType, base, *html)
	}
	if err == nil {
		_, err = stdout.Write(append(reply, '\n'))
	}
	if err != nil {
		fmt.Fprintf(stderr, "rooted-reader: %v\n", err)
		return 1
	}
	return 0
}

// serve answers readerproc's requests, one after another, until stdin ends (the parent closed it, or ended) or
// idle passes without one (then it calls exit).
func serve(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, idle time.Duration, exit func()) int {
	r := bufio.NewReader(stdin)
	w := bufio.NewWriter(stdout)
	// The idle exit never cuts a request short: one that has begun holds it off, so an exit with status 0 always
	// means no request was under way, which is what readerproc's rule for sending one again relies on.
	var mu sync.Mutex
	busy := false
	timer := time.AfterFunc(idle, func() {
		mu.Lock()
		defer mu.Unlock()
		if !busy {
			exit()
		}
	})
	defer timer.Stop()
	for {
		line, err := r.ReadBytes('\n')
		if err != nil {
			return 0 // the parent is done with it
		}
		mu.Lock()
		busy = true
		mu.Unlock()
		timer.Stop()
		var req readerproc.Request
		if err := json.Unmarshal(line, &req); err != nil || req.Len < 0 || req.Len > maxInput || len(req.Args) == 0 {
			fmt.Fprintf(stderr, "rooted-reader serve: not a request frame: %.200q\n", line)
			return 2
		}
		in := make([]byte, req.Len)
		if _, err := io.ReadFull(r, in); err != nil {
			fmt.Fprintf(stderr, "rooted-reader serve: reading a request's %d bytes: %v\n", req.Len, err)
			return 1
		}
		var out, errs bytes.Buffer
		code := run(ctx, req.Args, in, &out, &errs)
		head, _ := json.Marshal(readerproc.Reply{Code: code, Stderr: string(errs.Bytes()[:min(errs.Len(), 4<<10)]), Len: out.Len()})
		w.Write(append(head, '\n'))
		w.Write(out.Bytes())
		if err := w.Flush(); err != nil {
			return 1 // the parent is gone
		}
		mu.Lock()
		busy = false
		mu.Unlock()
		timer.Reset(idle)
	}
}
