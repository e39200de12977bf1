package mcpserver

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rooted-dev/rooted/backend/tool"
)

// The SDK encodes a tool result several times over before it reaches the transport: the text block with
// json.Marshal (HTML escaping included), then the result around it and the response around that, each pass
// re-validating the text it holds, and a transport that writes the message encodes it once more. For a read of a
// megabyte that is most of the call. A large text block is therefore handed to the SDK as a short placeholder,
// and the response is spliced on its way out (splicer.Write): the placeholder's JSON string is replaced by the text
// encoded once, with tool.AppendString. Every transport's connection is wrapped, so no placeholder ever reaches a
// client.

// spliceAbove is the size from which a text block is spliced into the response instead of encoded by the SDK.
const spliceAbove = 32 << 10

// texts holds the text blocks handed to the SDK as placeholders until their response is written.
type texts struct {
	prefix []byte // `"\u0000rooted-text:NONCE:`, the start of every placeholder's JSON encoding
	nonce  string

	mu      sync.Mutex
	runs    int // connections being served
	next    uint64
	pending map[string]string // placeholder's JSON encoding -> text
}

func newTexts() *texts {
	var b [12]byte
	_, _ = rand.Read(b[:])
	nonce := hex.EncodeToString(b[:])
	return &texts{nonce: nonce, prefix: []byte(`"\u0000rooted-text:` + nonce + ":"), pending: map[string]string{}}
}

// content is the text block for text: itself when short, else a placeholder the splicer replaces with it. The
// placeholder starts with a NUL, which the SDK's encoder writes as \u0000, and holds a random nonce: no text a
// tool returns can be mistaken for one.
func (t *texts) content(text string) *mcp.TextContent {
	if len(text) < spliceAbove {
		return &mcp.TextContent{Text: text}
	}
	t.mu.Lock()
	t.next++
	key := string(t.prefix) + strconv.FormatUint(t.next, 10) + `"`
	t.pending[key] = text
	t.mu.Unlock()
	return &mcp.TextContent{Text: "\x00rooted-text:" + t.nonce + ":" + strconv.FormatUint(t.next, 10)}
}

// splice replaces every placeholder in an encoded result with its text, encoded, and forgets those texts. It
// reports whether it replaced any.
func (t *texts) splice(result json.RawMessage) (json.RawMessage, bool) {
	if !bytes.Contains(result, t.prefix) {
		return result, false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []byte
	replaced := false
	rest := result
	for {
		i := bytes.Index(rest, t.prefix)
		if i < 0 {
			break
		}
		end := bytes.IndexByte(rest[i+len(t.prefix):], '"')
		if end < 0 {
			break
		}
		end += i + len(t.prefix) + 1
		text, ok := t.pending[string(rest[i:end])]
		if !ok {
			out = append(out, rest[:end]...)
			rest = rest[end:]
			continue
		}
		delete(t.pending, string(rest[i:end]))
		if !replaced {
			out = append(make([]byte, 0, len(result)+len(text)+len(text)/8), out...)
			replaced = true
		}
		out = append(out, rest[:i]...)
		out = tool.AppendString(out, text)
		rest = rest[end:]
	}
	if !replaced {
		return result, false
	}
	return append(out, rest...), true
}

// run counts a connection being served; its end, returned, drops every pending text once no connection is left
// to write them.
func (t *texts) run() (end func()) {
	t.mu.Lock()
	t.runs++
	t.mu.Unlock()
	return func() {
		t.mu.Lock()
		if t.runs--; t.runs == 0 {
			clear(t.pending)
		}
		t.mu.Unlock()
	}
}

// splicing wraps a transport so that its connection writes responses spliced, and calls answered after it writes
// one.
type splicing struct {
	mcp.Transport
	texts    *texts
	answered func()
}

func (s splicing) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := s.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return splicer{c, s.texts, s.answered}, nil
}

type splicer struct {
	mcp.Connection
	texts    *texts
	answered func()
}

// Write splices a response's placeholders before the connection writes it, even when the write is cancelled, so
// that no text stays held.
func (c splicer) Write(ctx context.Context, msg jsonrpc.Message) error {
	r, response := msg.(*jsonrpc.Response)
	if response && len(r.Result) > 0 {
		if spliced, ok := c.texts.splice(r.Result); ok {
			msg = &jsonrpc.Response{ID: r.ID, Result: spliced, Error: r.Error}
		}
	}
	err := c.Connection.Write(ctx, msg)
	if response && c.answered != nil {
		c.answered()
	}
	return err
}
