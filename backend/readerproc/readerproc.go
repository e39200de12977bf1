// Package readerproc runs rooted-reader, the program installed beside rooted and rooted-mcp that holds the large
// parsers of what comes from outside the project: PDFium in WebAssembly for a PDF's text (pdftext), readability
// and an HTML-to-Markdown converter for a web page (webfetch). Linked into rooted-mcp they cost every agent's
// start: their package initialisation and a binary half as large again made initialize some 5 ms slower, on every
// connection, for a PDF or a page that most sessions never read. A binary that links the parsers (the desktop app,
// a test) registers them with pdftext and webfetch and reads in its own process; rooted and rooted-mcp start
// rooted-reader for each file or page, which also keeps a hostile file's parse out of the server's process.
//
// One rooted-reader serves a process's requests in turn ("rooted-reader serve"), so a PDF costs PDFium's compiled
// code once, not once a file: a request that finds it busy runs a rooted-reader of its own. It ends by itself
// after Idle without a request, and with its parent (its stdin closes); the next request starts another.
//
// Guarantees: Run gives rooted-reader the request's bytes and arguments and nothing else it did not have (it
// inherits the environment, for the user's cache folder); it is killed when ctx ends; its answer is read up to a
// bound. A request that finds the serving rooted-reader gone (its idle time passed) is sent once more to a fresh
// one: requests only read their input, so sending one twice changes nothing.
//
// Not guaranteed: rooted-reader is found beside the running program or on PATH (beside.Find); one not built from
// the same source answers what it answers. Callers check the answer's shape.
package readerproc

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/rooted-dev/rooted/backend/beside"
)

// Name is the reader's executable.
const Name = "rooted-reader"

// ErrMissing is returned when rooted-reader is neither beside this program nor on PATH.
var ErrMissing = errors.New(Name + " is not installed beside this program (it reads PDFs and web pages: build it with make cli, or install the rooted package)")

// Idle is how long "rooted-reader serve" waits for a request before it ends, giving back PDFium's memory.
const Idle = 2 * time.Minute

// Request is the frame of one request to "rooted-reader serve": this JSON on a line, then Len bytes of input.
type Request struct {
	Args []string `json:"args"`
	Len  int      `json:"len"`
}

// Reply is the frame of one answer: this JSON on a line, then Len bytes, what the command wrote on stdout. Code
// is its exit code, Stderr the start of what it wrote there.
type Reply struct {
	Code   int    `json:"code"`
	Stderr string `json:"stderr,omitempty"`
	Len    int    `json:"len"`
}

// Run has rooted-reader run the command args (its first element "pdf" or "page") with in as its input, and
// returns what it wrote on stdout, at most max bytes. An exit other than 0 is an error with the start of what it
// wrote on stderr.
func Run(ctx context.Context, args []string, in []byte, max int) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if !shared.mu.TryLock() {
		return runOnce(ctx, args, in, max) // the serving one is busy: one of its own rather than a wait
	}
	defer shared.mu.Unlock()
	out, again, err := shared.call(ctx, args, in, max)
	if again {
		out, _, err = shared.call(ctx, args, in, max)
	}
	return out, err
}

// shared is the process's serving rooted-reader.
var shared server

type server struct {
	mu     sync.Mutex // held for a request
	cmd    *exec.Cmd  // nil when none runs
	in     io.WriteCloser
	out    *bufio.Reader
	stderr *capped // what it wrote on stderr (a panic's message, say), for the error when it ends
}

// call sends one request. again says the request failed because the serving rooted-reader, started for an earlier
// request, had ended: the caller sends it once more, to a fresh one.
func (s *server) call(ctx context.Context, args []string, in []byte, max int) (out []byte, again bool, err error) {
	fresh := s.cmd == nil
	if fresh {
		if err := s.start(); err != nil {
			return nil, false, err
		}
	}
	proc, stderr := s.cmd.Process, s.stderr
	stop := context.AfterFunc(ctx, func() { _ = proc.Kill() })
	defer stop()
	failed := func(err error) ([]byte, bool, error) {
		s.reset()
		if ctx.Err() != nil {
			return nil, false, ctx.Err()
		}
		return nil, !fresh, fmt.Errorf("%s %s: %v %s", Name, args[0], err, strings.TrimSpace(stderr.String()))
	}
	head, _ := json.Marshal(Request{Args: args, Len: len(in)})
	if _, err := s.in.Write(append(append(head, '\n'), in...)); err != nil {
		return failed(err)
	}
	line, err := s.out.ReadBytes('\n')
	if err != nil {
		return failed(err)
	}
	var r Reply
	if err := json.Unmarshal(line, &r); err != nil || r.Len < 0 {
		s.reset()
		return nil, false, fmt.Errorf("%s %s: an answer that is not a reply frame (%d bytes)", Name, args[0], len(line))
	}
	if r.Len > max {
		s.reset() // its bytes are not read: the next request needs a clean stream
		return nil, false, fmt.Errorf("%s %s: its answer is over %d bytes", Name, args[0], max)
	}
	out = make([]byte, r.Len)
	if _, err := io.ReadFull(s.out, out); err != nil {
		return failed(err)
	}
	if r.Code != 0 {
		return nil, false, fmt.Errorf("%s %s: exit status %d: %s", Name, args[0], r.Code, strings.TrimSpace(r.Stderr))
	}
	return out, false, nil
}

func (s *server) start() error {
	path, err := beside.Find(Name)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrMissing, err)
	}
	cmd := exec.Command(path, "serve")
	// Stderr is a pipe, not /dev/null, which a chroot or a container may not have.
	stderr := &capped{max: 4 << 10}
	cmd.Stderr = stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting %s: %w", Name, err)
	}
	s.cmd, s.in, s.out, s.stderr = cmd, in, bufio.NewReader(out), stderr
	return nil
}

// reset ends the serving rooted-reader, if any: the next request starts another.
func (s *server) reset() {
	if s.cmd == nil {
		return
	}
	cmd := s.cmd
	s.cmd, s.in, s.out, s.stderr = nil, nil, nil, nil
	_ = cmd.Process.Kill()
	go func() { _ = cmd.Wait() }()
}

// runOnce runs "rooted-reader ARGS" for one request, in on its stdin.
func runOnce(ctx context.Context, args []string, in []byte, max int) ([]byte, error) {
	path, err := beside.Find(Name)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrMissing, err)
	}
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Stdin = bytes.NewReader(in)
	out := &capped{max: max}
	stderr := &capped{max: 4 << 10}
	cmd.Stdout, cmd.Stderr = out, stderr
	cmd.WaitDelay = 2 * time.Second // a grandchild holding the pipes cannot keep the call waiting
	err = cmd.Run()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		return nil, fmt.Errorf("%s %s: %v: %s", Name, args[0], err, strings.TrimSpace(stderr.String()))
	}
	if out.over {
		return nil, fmt.Errorf("%s %s: its answer is over %d bytes", Name, args[0], max)
	}
	return out.buf.Bytes(), nil
}

// capped keeps at most max bytes and notes whether more came; it never fails a write, so the reader is never
// stopped by a full pipe. It is safe for a writer and a reader at once.
type capped struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	max  int
	over bool
}

func (c *capped) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if room := c.max - c.buf.Len(); room < len(p) {
		c.over = true
		c.buf.Write(p[:max(room, 0)])
		return len(p), nil
	}
	return c.buf.Write(p)
}

func (c *capped) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf.String()
}
