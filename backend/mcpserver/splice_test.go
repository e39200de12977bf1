package mcpserver

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A text block large enough to be spliced into the response reaches a client over any transport (here the SDK's
// in-memory one, as well as stdio in TestWholeFileReadCostsAboutTheFileOnTheWire) exactly as the tool made it,
// whatever it holds: quotes, backslashes, control bytes, HTML's characters, text that looks like JSON or like
// another placeholder. Nothing is left held once the responses are written.
func TestLargeTextBlockReachesTheClientWhole(t *testing.T) {
	dir := project(t)
	s, err := New(Options{Root: dir, MaxResultBytes: -1})
	if err != nil {
		t.Fatal(err)
	}
	var body strings.Builder
	for i := 0; i < 2100 || body.Len() < 3*spliceAbove; i++ {
		body.WriteString("if a && b <- c { s := \"q\\\\u003c\" } // \x01 \u2028 é \"\\u0000rooted-text:0:1\"\n")
	}
	content := body.String()
	os.WriteFile(filepath.Join(dir, "big.txt"), []byte(content), 0o644)
	cs := connect(t, s)
	lines := strings.Count(content, "\n")
	for range 2 {
		res, got := call(t, cs, "read_file", map[string]any{"path": "big.txt", "limit": lines})
		if res.IsError {
			t.Fatalf("read: %v", got)
		}
		text := got["text"].(string)
		if _, rest, _ := strings.Cut(text, "\n"); !strings.HasPrefix(rest, content) {
			t.Errorf("text block of %d bytes does not hold the %d-byte file: %.200q", len(text), len(content), text)
		}
		if got["size"] != float64(len(content)) || got["content"] != nil {
			t.Errorf("structuredContent: size %v, content present: %v", got["size"], got["content"] != nil)
		}
	}
	s.texts.mu.Lock()
	held, made := len(s.texts.pending), s.texts.next
	s.texts.mu.Unlock()
	if held != 0 || made != 2 {
		t.Errorf("%d texts still held after their responses were written; %d spliced, want 2", held, made)
	}
}

// A placeholder only the splicer's own nonce can make is replaced; one that is not pending (or another server's) is
// left as it is.
func TestSpliceReplacesOnlyItsPendingPlaceholders(t *testing.T) {
	t.Parallel()
	a, b := newTexts(), newTexts()
	big := strings.Repeat("<x>\n", spliceAbove)
	enc := func(v any) []byte { j, _ := json.Marshal(v); return j }
	result := enc(map[string]any{"content": []any{a.content(big), b.content(big)}, "other": a.content("short")})
	spliced, ok := a.splice(result)
	if !ok {
		t.Fatalf("nothing spliced in %s", result)
	}
	var back struct {
		Content []struct{ Text string } `json:"content"`
		Other   struct{ Text string }   `json:"other"`
	}
	if err := json.Unmarshal(spliced, &back); err != nil {
		t.Fatal(err)
	}
	if back.Content[0].Text != big || !strings.HasPrefix(back.Content[1].Text, "\x00rooted-text:"+b.nonce) || back.Other.Text != "short" {
		t.Errorf("after splicing: %.100q / %.100q / %q", back.Content[0].Text, back.Content[1].Text, back.Other.Text)
	}
	if again, ok := a.splice(result); ok || !bytes.Equal(again, result) {
		t.Errorf("a placeholder spliced twice")
	}
}
