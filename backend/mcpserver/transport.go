package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The SDK's stdio transport ends the session on the first frame it cannot decode (a line that is not JSON, a
// batch, a wrong version, an oversized or deeply nested frame) without a reply. Transport stands in front of the
// SDK instead: it reads the stream itself, one line a frame, answers every frame that is not a valid JSON-RPC 2.0
// message with the error object the JSON-RPC 2.0 specification names for it, and hands the SDK only messages it
// can decode. The session goes on after each such reply; only the end of the input (or Close) ends it.

const (
	// DefaultMaxFrame is the largest frame the transport reads; a longer one is skipped to its newline, unbuffered.
	DefaultMaxFrame = 16 << 20
	// maxDepth bounds the nesting of a frame, checked before anything decodes it (the SDK's decoder refuses 1,000
	// levels; no MCP message needs a tenth of that).
	maxDepth = 512
)

// Transport serves one session over a newline-delimited stream, as the SDK's StdioTransport does, but answers
// malformed frames instead of ending the session.
type Transport struct {
	Reader io.ReadCloser
	Writer io.Writer
	// MaxFrame bounds a frame in bytes (0: DefaultMaxFrame).
	MaxFrame int
}

// Connect implements mcp.Transport.
func (t *Transport) Connect(context.Context) (mcp.Connection, error) {
	limit := t.MaxFrame
	if limit <= 0 {
		limit = DefaultMaxFrame
	}
	c := &conn{
		in:       t.Reader,
		out:      t.Writer,
		incoming: make(chan readResult),
		closed:   make(chan struct{}),
		pending:  map[jsonrpc.ID]bool{},
	}
	go c.readLoop(NewFrameReader(t.Reader, limit))
	return c, nil
}

type readResult struct {
	msg jsonrpc.Message
	err error
}

type conn struct {
	in  io.Closer
	out io.Writer

	incoming  chan readResult
	closed    chan struct{}
	closeOnce sync.Once

	mu sync.Mutex // guards out and the fields below
	// initializing is set once an initialize request went to the SDK, and cleared if it was answered with an error:
	// until then a call other than initialize or ping is answered here, with a JSON-RPC code (the SDK's is 0).
	initializing bool
	pending      map[jsonrpc.ID]bool // initialize requests not yet answered
}

func (c *conn) SessionID() string { return "" }

// Read returns the next valid message; malformed frames were answered by the read loop.
func (c *conn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case r := <-c.incoming:
		return r.msg, r.err
	case <-c.closed:
		return nil, io.EOF
	}
}

// Write sends msg as one line. A response error with code 0 (an SDK error without a JSON-RPC code) goes out as an
// internal error, -32603, so that every error a client sees has a code the specification defines.
func (c *conn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if r, ok := msg.(*jsonrpc.Response); ok {
		c.mu.Lock()
		if c.pending[r.ID] {
			delete(c.pending, r.ID)
			if r.Error != nil {
				c.initializing = false
			}
		}
		c.mu.Unlock()
		var we *jsonrpc.Error
		if r.Error != nil && (!errors.As(r.Error, &we) || we.Code == 0) {
			msg = &jsonrpc.Response{ID: r.ID, Error: &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: r.Error.Error()}}
		}
	}
	if r, ok := msg.(*jsonrpc.Response); ok && r.Error == nil && len(r.Result) > 0 && r.ID.IsValid() {
		// A result comes encoded (compact, valid JSON) from the SDK: the envelope goes around it as it is, rather
		// than through EncodeMessage, which would scan a megabyte of it once more.
		id, err := json.Marshal(r.ID.Raw())
		if err != nil {
			return fmt.Errorf("encoding message: %w", err)
		}
		result := unescapeHTML(r.Result)
		line := make([]byte, 0, len(`{"jsonrpc":"2.0","id":,"result":}`)+len(id)+len(result)+1)
		line = append(append(append(line, `{"jsonrpc":"2.0","id":`...), id...), `,"result":`...)
		return c.write(append(append(line, result...), "}\n"...))
	}
	b, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("encoding message: %w", err)
	}
	return c.writeLine(unescapeHTML(b))
}

// unescapeHTML undoes encoding/json's HTML escaping in an encoded message: the SDK marshals results with
// json.Marshal, which writes every <, > and & inside a string as \u003c, \u003e or \u0026, six bytes for one, and a
// read of code is full of them (&&, <-, <=). The stream is JSON, not HTML, and JSON lets them stand as they are; the
// decoded message is the same. An escaped backslash is copied as the pair it is, so "\\u003c" (a backslash, then
// the text u003c) stays as it was.
func unescapeHTML(b []byte) []byte {
	var out []byte // allocated at the first escape undone
	last := 0
	for i := 0; ; {
		k := bytes.Index(b[i:], []byte(`\u00`))
		if k < 0 || i+k+6 > len(b) {
			break
		}
		k += i
		i = k + 1
		c := htmlEscaped(b[k+4 : k+6])
		if c == 0 {
			continue
		}
		// The backslash starts an escape only if the run of backslashes it ends is odd: "\\u003c" is an escaped
		// backslash and the text u003c. Outside strings JSON has no backslashes.
		run := 1
		for run <= k && b[k-run] == '\\' {
			run++
		}
		if run%2 == 0 {
			continue
		}
		if out == nil {
			out = make([]byte, 0, len(b))
		}
		out = append(out, b[last:k]...)
		out = append(out, c)
		last = k + 6
		i = last
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}

// htmlEscaped is the character encoding/json writes as \u00 followed by hex (lower case, as it writes them), or 0.
func htmlEscaped(hex []byte) byte {
	switch string(hex) {
	case "3c":
		return '<'
	case "3e":
		return '>'
	case "26":
		return '&'
	}
	return 0
}

func (c *conn) writeLine(b []byte) error {
	return c.write(append(b, '\n'))
}

// write writes a message, whole, in one call: a message in parts took a system call each, and a goroutine back
// from one may wait for a thread's turn (at the handshake, when the project's preparation starts, milliseconds)
// while the client waits for the rest of the line.
func (c *conn) write(line []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, err := c.out.Write(line)
	return err
}

func (c *conn) Close() error {
	var err error
	c.closeOnce.Do(func() {
		close(c.closed)
		err = c.in.Close()
	})
	return err
}

// readLoop reads frames until the input ends, answering the malformed ones and passing the rest to Read.
func (c *conn) readLoop(fr *FrameReader) {
	for {
		frame, err := fr.Next()
		if frame != nil || errors.Is(err, ErrFrameTooLarge) {
			var msg jsonrpc.Message
			var reply []byte
			if err != nil {
				reply = errorReply(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("frame larger than %d bytes discarded", fr.limit))
			} else {
				msg, reply = c.check(frame)
			}
			if reply != nil {
				if c.writeLine(reply) != nil {
					c.deliver(readResult{err: io.ErrClosedPipe})
					return
				}
			}
			if msg != nil && !c.deliver(readResult{msg: msg}) {
				return
			}
			if errors.Is(err, ErrFrameTooLarge) {
				continue
			}
		}
		if err != nil {
			c.deliver(readResult{err: err})
			return
		}
	}
}

func (c *conn) deliver(r readResult) bool {
	select {
	case c.incoming <- r:
		return true
	case <-c.closed:
		return false
	}
}

// check returns the message a frame holds, or the error reply it deserves.
func (c *conn) check(frame []byte) (jsonrpc.Message, []byte) {
	msg, e := Parse(frame)
	if e != nil {
		return nil, e
	}
	req, ok := msg.(*jsonrpc.Request)
	if !ok || !req.IsCall() {
		return msg, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case req.Method == "initialize":
		c.initializing = true
		c.pending[req.ID] = true
	case req.Method == "ping" || c.initializing || newProtocol(req.Params):
	default:
		return nil, errorReply(req.ID.Raw(), jsonrpc.CodeInvalidRequest, fmt.Sprintf("%q before initialize: the session starts with an initialize request", req.Method))
	}
	return msg, nil
}

// newProtocol reports whether a call's params carry the per-request protocol version (SEP-2575), which replaces
// initialize.
func newProtocol(params json.RawMessage) bool {
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(params, &p) != nil {
		return false
	}
	_, ok := p.Meta[mcp.MetaKeyProtocolVersion]
	return ok
}

// wire is the envelope of any JSON-RPC message; each member stays raw so its presence and type can be checked.
type wire struct {
	Version json.RawMessage `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  json.RawMessage `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
}

// Parse decodes one frame as a JSON-RPC 2.0 request, notification or response. When the frame is not one, it
// returns the error reply to send instead: -32700 (id null) for what is not JSON, -32600 for JSON that is not a
// valid message (a batch, too deep a nesting, a wrong version, a method that is not a string), with the frame's id
// when it has a usable one.
func Parse(frame []byte) (jsonrpc.Message, []byte) {
	frame = bytes.TrimSpace(frame)
	if d := depth(frame); d > maxDepth {
		return nil, errorReply(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("JSON nested deeper than %d levels", maxDepth))
	}
	if !json.Valid(frame) {
		return nil, errorReply(nil, jsonrpc.CodeParseError, "parse error: the frame is not JSON")
	}
	switch frame[0] {
	case '{':
	case '[':
		return nil, errorReply(nil, jsonrpc.CodeInvalidRequest, "batches are not supported (MCP removed JSON-RPC batching in 2025-06-18): send one message a line")
	default:
		return nil, errorReply(nil, jsonrpc.CodeInvalidRequest, "a message must be a JSON object")
	}
	var w wire
	if err := json.Unmarshal(frame, &w); err != nil {
		return nil, errorReply(nil, jsonrpc.CodeInvalidRequest, "invalid message: "+err.Error())
	}
	id, idOK := replyID(w.ID)
	invalid := func(msg string) (jsonrpc.Message, []byte) {
		if !idOK {
			id = nil
		}
		return nil, errorReply(id, jsonrpc.CodeInvalidRequest, msg)
	}
	if string(w.Version) != `"2.0"` {
		return invalid(`"jsonrpc" must be "2.0"`)
	}
	if w.ID != nil && !idOK {
		return invalid(`"id" must be a string, an integer or null`)
	}
	if w.Method != nil {
		if w.Method[0] != '"' {
			return invalid(`"method" must be a string`)
		}
		if w.Params != nil && w.Params[0] != '{' && w.Params[0] != '[' && string(w.Params) != "null" {
			return invalid(`"params" must be an object or an array`)
		}
		if w.Result != nil || w.Error != nil {
			return invalid(`a request has no "result" or "error"`)
		}
	} else if w.ID == nil || string(w.ID) == "null" || (w.Result == nil) == (w.Error == nil) {
		return invalid(`a message has a "method" (a request or notification), or an "id" with one of "result" or "error" (a response)`)
	}
	msg, err := jsonrpc.DecodeMessage(frame)
	if err != nil {
		return invalid("invalid message: " + err.Error())
	}
	return msg, nil
}

// replyID is a frame's id as it goes back in an error reply: ok for a string, an integer, or null (and absent).
func replyID(raw json.RawMessage) (any, bool) {
	if raw == nil || string(raw) == "null" {
		return nil, true
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return nil, false
	}
	switch x := v.(type) {
	case string:
		return x, true
	case float64:
		if x == float64(int64(x)) {
			return int64(x), true
		}
	}
	return nil, false
}

// errorReply is a JSON-RPC error response; id nil is sent as null.
func errorReply(id any, code int64, message string) []byte {
	b, _ := json.Marshal(struct {
		Version string `json:"jsonrpc"`
		ID      any    `json:"id"`
		Error   struct {
			Code    int64  `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{Version: "2.0", ID: id, Error: struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}{code, message}})
	return b
}

// depth is the deepest nesting of arrays and objects in b, counted without decoding (strings are skipped, so
// brackets inside them do not count). It stops counting past maxDepth.
func depth(b []byte) int {
	d, deepest := 0, 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			for i++; i < len(b) && b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
		case '[', '{':
			d++
			if d > deepest {
				deepest = d
				if deepest > maxDepth {
					return deepest
				}
			}
		case ']', '}':
			d--
		}
	}
	return deepest
}

// ErrFrameTooLarge is FrameReader.Next's error for a frame over the limit, which it skipped.
var ErrFrameTooLarge = errors.New("frame too large")

// FrameReader splits a stream into newline-terminated frames of at most limit bytes.
type FrameReader struct {
	r     *bufio.Reader
	limit int
}

// NewFrameReader reads frames of at most limit bytes from r.
func NewFrameReader(r io.Reader, limit int) *FrameReader {
	return &FrameReader{r: bufio.NewReaderSize(r, 64<<10), limit: limit}
}

// Next returns the next frame that is not blank, without its line ending. A frame over the limit is read to its
// newline without being kept, and Next returns ErrFrameTooLarge with a nil frame; the next call goes on after it.
// At the end of the input, a last frame without a newline is returned as it is (its parse fails if it was cut),
// and then io.EOF.
func (f *FrameReader) Next() ([]byte, error) {
	for {
		var frame []byte
		tooLarge := false
		for {
			chunk, err := f.r.ReadSlice('\n')
			if !tooLarge {
				if len(frame)+len(chunk) > f.limit+2 { // +2: the line ending is not the frame's
					tooLarge, frame = true, nil
				} else {
					frame = append(frame, chunk...)
				}
			}
			if errors.Is(err, bufio.ErrBufferFull) {
				continue
			}
			if tooLarge {
				if err != nil && !errors.Is(err, io.EOF) {
					return nil, err
				}
				return nil, ErrFrameTooLarge
			}
			frame = bytes.TrimSpace(frame)
			if len(frame) > 0 {
				if len(frame) > f.limit {
					return nil, ErrFrameTooLarge
				}
				return frame, nil
			}
			if err != nil {
				return nil, err
			}
			break // a blank line: read the next
		}
	}
}
