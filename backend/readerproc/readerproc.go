// Package readerproc runs rooted-reader, the program installed beside rooted, rooted-mcp and the desktop app that
// holds the large parsers of what comes from outside the project: PDFium in WebAssembly for a PDF's text
// (pdftext), readability and an HTML-to-Markdown converter for a web page (webfetch). It confines itself before it
// reads a byte (sandbox.ConfineSelf says what is left: its compiled-code folder, no socket, no other process, no
// capability), and starts here in a session of its own with a minimal environment. So a hostile PDF or page is
// parsed where an escape from the parser finds none of the user's files, keys or network, never in a process that
// holds them; and the parsers cost no start (linked into rooted-mcp,
// their package initialisation and a binary half as large again made initialize some 5 ms slower on every
// connection). A binary that links the parsers (rooted-reader itself, a test) registers them with pdftext and
// webfetch and reads in its own process.
//
// One rooted-reader serves a process's requests in turn ("rooted-reader serve": a JSON line and the input's
// bytes in, a JSON line and the answer's bytes out), so a PDF costs PDFium's compiled code once, not once a file.
// A request that finds it busy gets a rooted-reader of its own, for that request alone (two at most at once). The serving one ends by
// itself after Idle without a request, and when its parent ends (its stdin closes); the next request starts
// another.
//
// Guarantees: rooted-reader is the one beside the running program, never one found on PATH (a folder there may be
// one a command can write). It gets a request's arguments and bytes on its stdin, never on its command line (a
// URL's token would show in the process list), and is killed when the request's ctx ends. An answer is read up to
// the caller's bound. A request is sent a second time only when the serving rooted-reader had ended by itself
// (exit status 0: its idle time passed as the request came), never when it died on the request.
//
// Not guaranteed: a rooted-reader not built from the same source answers what it answers; callers check the
// answer's shape.
package readerproc

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/rooted-dev/rooted/backend/beside"
	"github.com/rooted-dev/rooted/backend/sandbox"
)

// Name is the reader's executable.
const Name = "rooted-reader"

// Idle is how long "rooted-reader serve" waits for a request before it ends, giving back PDFium's memory.
const Idle = 2 * time.Minute

// ErrMissing is returned when rooted-reader is not beside this program.
var ErrMissing = errors.New("the PDF and web page reader is missing: install the rooted package, or build it with make cli")

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

var (
	testMu   sync.Mutex
	testPath string
)

// UseForTests makes requests start exe rather than the rooted-reader beside this program (a test binary has none
// beside it), until restore is called. For tests (readertest builds exe).
func UseForTests(exe string) (restore func()) {
	set := func(p string) {
		shared.mu.Lock()
		shared.reset()
		shared.mu.Unlock()
		testMu.Lock()
		testPath = p
		testMu.Unlock()
	}
	set(exe)
	return func() { set("") }
}

func path() (string, error) {
	testMu.Lock()
	p := testPath
	testMu.Unlock()
	if p != "" {
		return p, nil
	}
	p, err := beside.Path(Name)
	if err != nil {
		return "", fmt.Errorf("%w (%v)", ErrMissing, err)
	}
	return p, nil
}

// Run has rooted-reader run the command args (its first element "pdf" or "page") with in as its input, and
// returns what it wrote on stdout, at most max bytes. An exit other than 0 is an error with the start of what it
// wrote on stderr.
func Run(ctx context.Context, args []string, in []byte, max int) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if !shared.mu.TryLock() {
		// The serving one is busy: one of this request's own rather than a wait, up to ownAtOnce of them (each
		// may hold PDFium and 512 MiB of its memory); past that, a wait for one of them to end.
		select {
		case owners <- struct{}{}:
			defer func() { <-owners }()
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		var own server
		defer own.close()
		out, _, err := own.call(ctx, args, in, max)
		return out, err
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

// ownAtOnce is how many requests that found shared busy may each have a rooted-reader of their own at once.
const ownAtOnce = 2

var owners = make(chan struct{}, ownAtOnce)

// maxHead bounds a reply frame's JSON line.
const maxHead = 64 << 10

type server struct {
	mu     sync.Mutex // held for a request to shared
	cmd    *exec.Cmd  // nil when none runs
	in     io.WriteCloser
	outF   *os.File // the read end of its stdout, which Wait leaves alone
	out    *bufio.Reader
	stderr *capped       // what it wrote on stderr (a panic's message), read once done is closed
	done   chan struct{} // closed when it has ended and been waited for
}

// call sends one request. again says the serving rooted-reader had ended by itself as the request came: the
// caller sends it once more, to a fresh one.
func (s *server) call(ctx context.Context, args []string, in []byte, max int) (out []byte, again bool, err error) {
	if s.cmd != nil {
		select {
		case <-s.done:
			s.reset() // it ended between requests: its idle time passed
		default:
		}
	}
	if s.cmd == nil {
		if err := s.start(); err != nil {
			return nil, false, err
		}
	}
	cmd, stderr, done := s.cmd, s.stderr, s.done
	stop := context.AfterFunc(ctx, func() { _ = cmd.Process.Kill() })
	defer stop()
	// answered returns an answer read whole; if ctx ended as it came, the kill may be on its way, and the reader
	// is let go rather than left for the next request to find dead.
	answered := func(out []byte, err error) ([]byte, bool, error) {
		if !stop() {
			s.reset()
		}
		return out, false, err
	}
	failed := func(err error) ([]byte, bool, error) {
		s.reset()
		<-done
		if ctx.Err() != nil {
			return nil, false, ctx.Err()
		}
		idle := cmd.ProcessState != nil && cmd.ProcessState.Success()
		return nil, idle, fmt.Errorf("%s %s: %v (%s) %s", Name, args[0], err, cmd.ProcessState, strings.TrimSpace(stderr.String()))
	}
	head, _ := json.Marshal(Request{Args: args, Len: len(in)})
	if _, err := s.in.Write(append(head, '\n')); err != nil {
		return failed(err)
	}
	if _, err := s.in.Write(in); err != nil {
		return failed(err)
	}
	line, err := s.out.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		s.reset()
		return nil, false, fmt.Errorf("%s %s: a reply frame over %d bytes", Name, args[0], maxHead)
	}
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
		return answered(nil, fmt.Errorf("%s %s: exit status %d: %s", Name, args[0], r.Code, strings.TrimSpace(r.Stderr)))
	}
	return answered(out, nil)
}

func (s *server) start() error {
	exe, err := path()
	if err != nil {
		return err
	}
	cmd := exec.Command(exe, "serve")
	cmd.Env = readerEnv(os.Environ())
	detach(cmd)
	cmd.WaitDelay = 2 * time.Second // Wait does not hang on a descendant that holds stderr
	// Pipes, not /dev/null, which a chroot or a container may not have. Stdout is a pipe of ours, so that Wait,
	// which may run while a reply is read, does not close it.
	stderr := &capped{max: 4 << 10}
	cmd.Stderr = stderr
	outF, outW, err := os.Pipe()
	if err != nil {
		return err
	}
	cmd.Stdout = outW
	in, err := cmd.StdinPipe()
	if err != nil {
		outF.Close()
		outW.Close()
		return err
	}
	err = sandbox.Start(cmd) // from a thread that outlives it: the parent-death signal is the thread's
	outW.Close()
	if err != nil {
		outF.Close()
		return fmt.Errorf("starting %s: %w", Name, err)
	}
	done := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(done)
	}()
	s.cmd, s.in, s.outF, s.out, s.stderr, s.done = cmd, in, outF, bufio.NewReaderSize(outF, maxHead), stderr, done
	return nil
}

// readerEnv is the environment rooted-reader gets from env, its parent's: what finds the user's cache folder and
// runs a program, and nothing else, so no token of the parent's is in a parser's reach.
func readerEnv(env []string) []string {
	var out []string
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		switch strings.ToUpper(name) {
		case "HOME", "XDG_CACHE_HOME", "LOCALAPPDATA", "SYSTEMROOT", "PATH", "TMPDIR", "TMP", "TEMP":
			out = append(out, kv)
		}
	}
	return out
}

// reset ends the serving rooted-reader, if any (a no-op for one that has ended): the next request starts another.
func (s *server) reset() {
	if s.cmd == nil {
		return
	}
	_ = s.cmd.Process.Kill()
	s.in.Close()
	s.outF.Close()
	s.cmd, s.in, s.outF, s.out, s.stderr, s.done = nil, nil, nil, nil, nil, nil
}

// close ends a request's own rooted-reader the way its parent's end would: its stdin closes, and it exits.
func (s *server) close() {
	if s.cmd == nil {
		return
	}
	s.in.Close()
	s.outF.Close()
	s.cmd = nil
}

// capped keeps at most max bytes; it never fails a write, so the reader is never stopped by a full pipe. It is
// safe for a writer and a reader at once.
type capped struct {
	mu  sync.Mutex
	buf bytes.Buffer
	max int
}

func (c *capped) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.buf.Write(p[:min(len(p), max(c.max-c.buf.Len(), 0))])
	return len(p), nil
}

func (c *capped) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf.String()
}
