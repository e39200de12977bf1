package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// wireSession is the server on the other end of two pipes, spoken to in raw bytes.
type wireSession struct {
	t    *testing.T
	in   *io.PipeWriter
	out  *bufio.Reader
	done chan error
}

func startWire(t *testing.T) *wireSession {
	t.Helper()
	s, err := New(Options{Root: project(t)})
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	w := &wireSession{t: t, in: inW, out: bufio.NewReaderSize(outR, 1<<20), done: make(chan error, 1)}
	go func() {
		err := s.Run(context.Background(), &Transport{Reader: inR, Writer: outW})
		outW.Close()
		w.done <- err
	}()
	t.Cleanup(func() {
		inW.Close()
		outR.Close()
		s.Close()
	})
	return w
}

// send writes raw bytes; the writing goes on in the background so that a frame larger than the pipe can be sent
// while the server answers.
func (w *wireSession) send(b []byte) {
	go func() { _, _ = w.in.Write(b) }()
}

type reply struct {
	ID     any             `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// recv reads the next line the server writes, skipping its own requests and notifications.
func (w *wireSession) recv() reply {
	w.t.Helper()
	for {
		line, err := w.out.ReadBytes('\n')
		if err != nil {
			w.t.Fatalf("reading a reply: %v (got %q)", err, line)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(line, &m); err != nil {
			w.t.Fatalf("the server wrote a line that is not JSON: %q", line)
		}
		if string(m["jsonrpc"]) != `"2.0"` {
			w.t.Fatalf("reply without jsonrpc 2.0: %s", line)
		}
		if _, isRequest := m["method"]; isRequest {
			continue
		}
		var r reply
		json.Unmarshal(line, &r)
		return r
	}
}

func (w *wireSession) initialize() {
	w.t.Helper()
	w.send([]byte(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}` + "\n"))
	if r := w.recv(); r.Error != nil || r.ID != "init" {
		w.t.Fatalf("initialize: %+v", r)
	}
	w.send([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"))
}

// listTools asks for the tools and checks they come.
func (w *wireSession) listTools(id int) {
	w.t.Helper()
	w.send(fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`+"\n", id))
	r := w.recv()
	if r.Error != nil || r.ID != float64(id) || !bytes.Contains(r.Result, []byte(`"read_file"`)) {
		w.t.Fatalf("tools/list after a bad frame: %+v %.200s", r.Error, r.Result)
	}
}

// Every malformed frame gets the error reply JSON-RPC 2.0 names for it, and the session goes on.
func TestMalformedFramesAreAnsweredAndTheSessionGoesOn(t *testing.T) {
	w := startWire(t)
	// Before initialize, a call is refused with a JSON-RPC code, not the SDK's 0.
	w.send([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}` + "\n"))
	if r := w.recv(); r.Error == nil || r.Error.Code != jsonrpc.CodeInvalidRequest || r.ID != 1.0 {
		t.Fatalf("a call before initialize: %+v", r)
	}
	w.initialize()
	deep := strings.Repeat("[", 1_000_000) + strings.Repeat("]", 1_000_000)
	huge := `{"jsonrpc":"2.0","id":99,"method":"tools/call","params":{"name":"write_file","arguments":{"path":"x","content":"` +
		strings.Repeat("a", DefaultMaxFrame) + `"}}}`
	for i, c := range []struct {
		name, frame string
		code        int64
		id          any
	}{
		{"not JSON", `{bad json`, jsonrpc.CodeParseError, nil},
		{"a truncated frame", `{"jsonrpc":"2.0","id":3,"method":"pi`, jsonrpc.CodeParseError, nil},
		{"binary", "\x00\xff\xfe", jsonrpc.CodeParseError, nil},
		{"a batch", `[{"jsonrpc":"2.0","id":4,"method":"ping"}]`, jsonrpc.CodeInvalidRequest, nil},
		{"an empty batch", `[]`, jsonrpc.CodeInvalidRequest, nil},
		{"a string", `"tools/list"`, jsonrpc.CodeInvalidRequest, nil},
		{"version 1.0", `{"jsonrpc":"1.0","id":5,"method":"ping"}`, jsonrpc.CodeInvalidRequest, 5.0},
		{"no version", `{"id":6,"method":"ping"}`, jsonrpc.CodeInvalidRequest, 6.0},
		{"a method that is a number", `{"jsonrpc":"2.0","id":7,"method":123}`, jsonrpc.CodeInvalidRequest, 7.0},
		{"an id that is an object", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, jsonrpc.CodeInvalidRequest, nil},
		{"params that are a string", `{"jsonrpc":"2.0","id":"p","method":"tools/list","params":"x"}`, jsonrpc.CodeInvalidRequest, "p"},
		{"neither request nor response", `{"jsonrpc":"2.0","id":8}`, jsonrpc.CodeInvalidRequest, 8.0},
		{"a 1,000,000-deep array", deep, jsonrpc.CodeInvalidRequest, nil},
		{"a frame over 16 MiB", huge, jsonrpc.CodeInvalidRequest, nil},
		{"an unknown method", `{"jsonrpc":"2.0","id":9,"method":"no/such"}`, jsonrpc.CodeMethodNotFound, 9.0},
	} {
		t.Run(c.name, func(t *testing.T) {
			w.t = t
			w.send([]byte(c.frame + "\r\n"))
			r := w.recv()
			if r.Error == nil || r.Error.Code != c.code || r.ID != c.id {
				t.Errorf("reply %+v (id %v), want code %d id %v", r.Error, r.ID, c.code, c.id)
			}
			w.listTools(100 + i)
		})
	}
	w.t = t
	// Blank lines are not frames; a notification is not answered; the next call is.
	w.send([]byte("\n\r\n   \n" + `{"jsonrpc":"2.0","method":"notifications/whatever"}` + "\n"))
	w.listTools(200)
	// A frame cut by the end of the input is answered, and the session ends cleanly.
	if _, err := w.in.Write([]byte(`{"jsonrpc":"2.0","id":300,"method":"tools/li`)); err != nil {
		t.Fatal(err)
	}
	w.in.Close()
	if r := w.recv(); r.Error == nil || r.Error.Code != jsonrpc.CodeParseError {
		t.Errorf("a frame cut by the end of the input: %+v", r)
	}
	if err := <-w.done; err != nil && !errors.Is(err, io.EOF) {
		t.Errorf("the session ended with %v", err)
	}
}

// The read loop returns frames as they were sent, without their line endings, and skips an oversized one to its
// newline without keeping it.
func TestFrameReader(t *testing.T) {
	in := "a\n\r\nbb\r\n" + strings.Repeat("x", 100) + "\n  ccc  \n" + strings.Repeat("y", 10) + "\nd"
	fr := NewFrameReader(strings.NewReader(in), 10)
	var got []string
	for {
		f, err := fr.Next()
		if errors.Is(err, ErrFrameTooLarge) {
			got = append(got, "<too large>")
			continue
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(f))
	}
	want := []string{"a", "bb", "<too large>", "ccc", strings.Repeat("y", 10), "d"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("frames %q, want %q", got, want)
	}
}

// FuzzFrameReader: whatever the stream, frames stay within the limit, hold no newline, and the reader ends.
func FuzzFrameReader(f *testing.F) {
	f.Add([]byte("{\"jsonrpc\":\"2.0\"}\n{}\r\n"), 8)
	f.Add([]byte("\n\n\n"), 1)
	f.Add([]byte(strings.Repeat("z", 300)+"\nq"), 64)
	f.Fuzz(func(t *testing.T, in []byte, limit int) {
		if limit < 1 || limit > 1<<16 {
			return
		}
		fr := NewFrameReader(bytes.NewReader(in), limit)
		for n := 0; n <= len(in)+1; n++ {
			frame, err := fr.Next()
			if err == io.EOF {
				return
			}
			if errors.Is(err, ErrFrameTooLarge) {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(frame) == 0 || len(frame) > limit || bytes.ContainsAny(frame, "\n") {
				t.Fatalf("frame %q (limit %d)", frame, limit)
			}
		}
		t.Fatal("the reader did not reach the end of its input")
	})
}

// FuzzParse: any frame is either a message the SDK can take or a JSON-RPC error reply with a defined code, never
// a panic.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, `{"jsonrpc":"2.0","id":"a","result":{}}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"x"}}`, `{"jsonrpc":"2.0","method":"n"}`,
		`[1]`, `{bad`, `{"jsonrpc":"2.0","id":1.5,"method":"x"}`, `{"jsonrpc":"2.0","method":"x","params":1}`,
		strings.Repeat("[", 600), `{"a":"[[[[\"]]"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, frame []byte) {
		frame = bytes.TrimSpace(frame)
		if len(frame) == 0 {
			return
		}
		msg, reply := Parse(frame)
		if (msg == nil) == (reply == nil) {
			t.Fatalf("Parse(%q) = %v, %s", frame, msg, reply)
		}
		if reply == nil {
			return
		}
		var r struct {
			Version string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Error   struct {
				Code int64 `json:"code"`
			} `json:"error"`
		}
		if err := json.Unmarshal(reply, &r); err != nil || r.Version != "2.0" || r.ID == nil ||
			(r.Error.Code != jsonrpc.CodeParseError && r.Error.Code != jsonrpc.CodeInvalidRequest) {
			t.Fatalf("reply %s to %q", reply, frame)
		}
	})
}
