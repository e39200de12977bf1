package mcpserver

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// meta2026 is the per-request _meta of a 2026-07-28 client (no initialize: each request says who it is).
func meta2026(client string, caps string) string {
	return fmt.Sprintf(`{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":%q,"version":"1"},"io.modelcontextprotocol/clientCapabilities":%s}`, client, caps)
}

// answer is a JSON-RPC response as the tests read it.
type answer struct {
	Error  *struct{ Code int } `json:"error"`
	Result struct {
		Capabilities      map[string]json.RawMessage `json:"capabilities"`
		SupportedVersions []string                   `json:"supportedVersions"`
		TTLMs             int                        `json:"ttlMs"`
		CacheScope        string                     `json:"cacheScope"`
		Tools             []map[string]json.RawMessage
		IsError           bool `json:"isError"`
		StructuredContent json.RawMessage
		InputRequests     map[string]json.RawMessage `json:"inputRequests"`
		Content           []struct{ Text string }
		Meta              map[string]json.RawMessage `json:"_meta"`
	} `json:"result"`
}

func decode(t *testing.T, line []byte) answer {
	t.Helper()
	var a answer
	if err := json.Unmarshal(line, &a); err != nil {
		t.Fatalf("answer %.300s: %v", line, err)
	}
	if a.Error != nil {
		t.Fatalf("protocol error: %s", line)
	}
	return a
}

// checkServer holds for either era: tools only (no logging, deprecated by SEP-2577), a list that follows the
// user's settings and so may be kept a minute at most, by this user's client only, tools without an outputSchema,
// and a read that is numbered lines in the text block with no structuredContent (what Claude Code and Codex would
// hand their model instead).
func checkServer(t *testing.T, c *stdio, meta string) {
	t.Helper()
	list := decode(t, c.roundTrip(t, `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":`+meta+`}}`))
	if len(list.Result.Tools) < 14 || list.Result.TTLMs <= 0 || list.Result.TTLMs > 60_000 || list.Result.CacheScope != "private" {
		t.Errorf("tools/list: %d tools, ttlMs %d, cacheScope %q", len(list.Result.Tools), list.Result.TTLMs, list.Result.CacheScope)
	}
	for _, tl := range list.Result.Tools {
		if _, ok := tl["outputSchema"]; ok {
			t.Errorf("%s has an outputSchema", tl["name"])
		}
		if strings.Contains(string(tl["inputSchema"]), `"type":["`) {
			t.Errorf("%s's schema has a type array, which strict Ajv warns about: %s", tl["name"], tl["inputSchema"])
		}
	}
	read := decode(t, c.roundTrip(t, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"main.go"},"_meta":`+meta+`}}`))
	if read.Result.IsError || len(read.Result.Content) != 1 || !strings.HasPrefix(read.Result.Content[0].Text, "1\tpackage main\n") || read.Result.StructuredContent != nil {
		t.Errorf("read: %+v", read.Result)
	}
	var fields map[string]any
	if err := json.Unmarshal(read.Result.Meta[ResultMeta], &fields); err != nil || fields["total_lines"] != float64(3) || fields["content"] != nil {
		t.Errorf("read's fields in _meta: %s", read.Result.Meta[ResultMeta])
	}
}

func goModule(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644)
	return dir
}

// The 2025-06-18 era: initialize, then requests without _meta.
func TestEra20250618(t *testing.T) {
	c := serveStdio(t, Options{Root: goModule(t)})
	init := decode(t, c.roundTrip(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"elicitation":{}},"clientInfo":{"name":"codex-mcp-client","version":"0.169.0"}}}`))
	if _, ok := init.Result.Capabilities["logging"]; ok {
		t.Errorf("capabilities: %v", init.Result.Capabilities)
	}
	if !strings.Contains(string(init.Result.Capabilities["tools"]), `"listChanged":true`) {
		t.Errorf("capabilities: %v", init.Result.Capabilities)
	}
	c.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	checkServer(t, c, `{}`)
}

// The 2026-07-28 era: server/discover and no handshake; every request carries who the client is.
func TestEra20260728(t *testing.T) {
	c := serveStdio(t, Options{Root: goModule(t)})
	meta := meta2026("claude-code", `{"roots":{},"elicitation":{}}`)
	disc := decode(t, c.roundTrip(t, `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":`+meta+`}}`))
	if _, ok := disc.Result.Capabilities["logging"]; ok || !strings.Contains(string(disc.Result.Capabilities["tools"]), `"listChanged":true`) || !strings.Contains(strings.Join(disc.Result.SupportedVersions, " "), "2026-07-28") {
		t.Errorf("server/discover: capabilities %v, versions %v", disc.Result.Capabilities, disc.Result.SupportedVersions)
	}
	// What discovery says changes only with the binary, and is the same for every user.
	if disc.Result.TTLMs < 60*60*1000 || disc.Result.CacheScope != "public" {
		t.Errorf("server/discover: ttlMs %d, cacheScope %q", disc.Result.TTLMs, disc.Result.CacheScope)
	}
	checkServer(t, c, meta)
}

// Without --root, a client that declared roots is asked for them (an input request in the 2026-07-28 era), and one
// that did not is never asked (the specification forbids it): its tools say how to give the server a project.
func TestRootsAskedOnlyOfClientsThatDeclareThem(t *testing.T) {
	t.Setenv("WORKSPACE_FOLDER_PATHS", "")
	c := serveStdio(t, Options{})
	call := `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"main.go"},"_meta":%s}}`

	without := decode(t, c.roundTrip(t, fmt.Sprintf(call, 1, meta2026("claude-code", `{"elicitation":{}}`))))
	if !without.Result.IsError || without.Result.InputRequests != nil || !strings.Contains(without.Result.Content[0].Text, "no_project") || !strings.Contains(without.Result.Content[0].Text, "--root") {
		t.Errorf("a client without roots: %+v", without.Result)
	}
	with := decode(t, c.roundTrip(t, fmt.Sprintf(call, 2, meta2026("claude-code", `{"roots":{}}`))))
	if _, ok := with.Result.InputRequests[rootsInput]; !ok {
		t.Errorf("a client with roots was not asked for them: %+v", with.Result)
	}
}
