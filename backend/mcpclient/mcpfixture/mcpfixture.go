// Package mcpfixture is the MCP servers the tests of Rooted's MCP client start, as a user's server would be (in
// the sandbox, over stdio): a test binary whose TestMain calls RunIfAsked doubles as them. AuthServer and
// ProtectedServer are an OAuth authorization server and an MCP server that needs its tokens (oauth.go). Config,
// HelloServer and Names set a project up for the tests: the fixture as its server, and the web and host names its
// network tests reach (project.go).
package mcpfixture

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Env selects the server (Env=2025strict: the same 2025 server, which exits on a method it does not know, as some
// servers of that era do on server/discover): Env=2025 speaks only 2025-06-18 (initialize; server/discover is an unknown method), and
// FIXTURE_MCP=2026 only 2026-07-28 (server/discover; initialize refused), the latter on the go-sdk's server.
// Both have the same tools:
//   - add {a, b}: the sum.
//   - steal {path, addr}: reads the file at path and connects to addr over TCP, and says what it got.
//   - hang {}: never answers.
//   - flood {}: writes 64 MiB on stderr and answers one 20 MiB line.
//   - grow {}: adds the tool extra, and says the list changed (notifications/tools/list_changed).
//   - env {}: its environment, one NAME=value a line.
//   - fetch {url}: GETs url as an ordinary client does (through the proxy the environment names), and says the
//     status and body, or the error.
//
// It is not linked into Rooted: only tests import it, and oauthserver, the browser tests' fixture program.
const Env = "FIXTURE_MCP"

// FetchFirstEnv names a URL the fixture GETs before it serves, exiting with status 1 when the answer is not 200
// OK: a server that downloads what it needs as it starts (npx), and cannot.
const FetchFirstEnv = "FIXTURE_MCP_FETCH_FIRST"

// RunIfAsked serves as the fixture the environment names, and exits; it returns at once when none is named.
func RunIfAsked() {
	if era := os.Getenv(Env); era != "" {
		if u := os.Getenv(FetchFirstEnv); u != "" {
			if got := fixtureFetch(FetchIn{URL: u}); !strings.HasPrefix(got, "200 OK") {
				fmt.Fprintln(os.Stderr, got)
				os.Exit(1)
			}
		}
		runFixture(era)
		os.Exit(0)
	}
}

// StealIn are the arguments of steal.
type StealIn struct {
	Path string `json:"path"`
	Addr string `json:"addr"`
}

// FetchIn are the arguments of fetch.
type FetchIn struct {
	URL string `json:"url"`
}

func fixtureFetch(in FetchIn) string {
	c := &http.Client{Timeout: 10 * time.Second} // the default transport: the proxy from the environment
	res, err := c.Get(in.URL)
	if err != nil {
		return "fetch: " + err.Error()
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(res.Body, 4096))
	return res.Status + "\n" + string(b)
}

type addIn struct {
	A float64 `json:"a"`
	B float64 `json:"b"`
}

func fixtureAdd(in addIn) string { return fmt.Sprint(in.A + in.B) }

func fixtureSteal(in StealIn) string {
	read := "read: ok"
	if b, err := os.ReadFile(in.Path); err != nil {
		read = "read: " + err.Error()
	} else {
		read += " " + string(b)
	}
	conn := "connect: ok"
	if c, err := net.DialTimeout("tcp", in.Addr, 2*time.Second); err != nil {
		conn = "connect: " + err.Error()
	} else {
		c.Close()
	}
	return read + "\n" + conn
}

func runFixture(era string) {
	switch era {
	case "2025":
		fixture2025(false)
	case "2025strict":
		fixture2025(true)
	case "2026":
		fixture2026()
	}
}

// fixture2025 is a server of the 2025-06-18 era written out by hand, so that it is nothing newer.
func fixture2025(strict bool) {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	out := json.NewEncoder(os.Stdout)
	tools := []map[string]any{
		{"name": "add", "description": "adds", "inputSchema": map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{"type": "number"}, "b": map[string]any{"type": "number"}}, "required": []string{"a", "b"}}, "annotations": map[string]any{"readOnlyHint": true}},
		{"name": "steal", "inputSchema": map[string]any{"type": "object", "properties": map[string]any{"path": map[string]any{"type": "string"}, "addr": map[string]any{"type": "string"}}}},
		{"name": "hang", "inputSchema": map[string]any{"type": "object"}},
		{"name": "flood", "inputSchema": map[string]any{"type": "object"}},
		{"name": "grow", "inputSchema": map[string]any{"type": "object"}},
		{"name": "env", "inputSchema": map[string]any{"type": "object"}},
		{"name": "fetch", "inputSchema": map[string]any{"type": "object", "properties": map[string]any{"url": map[string]any{"type": "string"}}}},
	}
	for in.Scan() {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Name      string          `json:"name"`
				Arguments json.RawMessage `json:"arguments"`
			} `json:"params"`
		}
		if json.Unmarshal(in.Bytes(), &req) != nil || req.ID == nil {
			continue // a notification
		}
		answer := func(result any) {
			_ = out.Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result})
		}
		text := func(s string) { answer(map[string]any{"content": []map[string]any{{"type": "text", "text": s}}}) }
		switch req.Method {
		case "initialize":
			answer(map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{"tools": map[string]any{"listChanged": true}}, "serverInfo": map[string]any{"name": "fixture-2025", "version": "1"}})
		case "tools/list":
			answer(map[string]any{"tools": tools})
		case "tools/call":
			switch req.Params.Name {
			case "add":
				var a addIn
				_ = json.Unmarshal(req.Params.Arguments, &a)
				text(fixtureAdd(a))
			case "steal":
				var s StealIn
				_ = json.Unmarshal(req.Params.Arguments, &s)
				text(fixtureSteal(s))
			case "env":
				text(strings.Join(os.Environ(), "\n"))
			case "fetch":
				var f FetchIn
				_ = json.Unmarshal(req.Params.Arguments, &f)
				text(fixtureFetch(f))
			case "hang":
				select {}
			case "flood":
				flood()
			case "grow":
				tools = append(tools, map[string]any{"name": "extra", "inputSchema": map[string]any{"type": "object"}})
				_ = out.Encode(map[string]any{"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
				text("grown")
			default:
				text(req.Params.Name)
			}
		default:
			if strict {
				fmt.Fprintln(os.Stderr, "unknown method", req.Method)
				os.Exit(1)
			}
			_ = out.Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{"code": -32601, "message": "method not found: " + req.Method}})
		}
	}
}

func flood() {
	chunk := make([]byte, 1<<20)
	for i := range chunk {
		chunk[i] = 'x'
	}
	for range 64 {
		_, _ = os.Stderr.Write(chunk)
	}
	_, _ = os.Stdout.WriteString(`{"jsonrpc":"2.0","id":99,"result":{"content":[{"type":"text","text":"`)
	for range 20 {
		_, _ = os.Stdout.Write(chunk)
	}
	_, _ = os.Stdout.WriteString("\"}]}}\n")
	select {}
}

// fixture2026 is the go-sdk's server, with initialize refused: only server/discover opens a session.
func fixture2026() {
	s := mcp.NewServer(&mcp.Implementation{Name: "fixture-2026", Version: "1"}, nil)
	text := func(s string) *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
	}
	mcp.AddTool(s, &mcp.Tool{Name: "add", Description: "adds", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, func(_ context.Context, _ *mcp.CallToolRequest, in addIn) (*mcp.CallToolResult, any, error) {
		return text(fixtureAdd(in)), nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "steal"}, func(_ context.Context, _ *mcp.CallToolRequest, in StealIn) (*mcp.CallToolResult, any, error) {
		return text(fixtureSteal(in)), nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "hang"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		select {}
	})
	mcp.AddTool(s, &mcp.Tool{Name: "flood"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		flood()
		return nil, nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "grow"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		mcp.AddTool(s, &mcp.Tool{Name: "extra"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return text("extra"), nil, nil
		})
		return text("grown"), nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "env"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return text(strings.Join(os.Environ(), "\n")), nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "fetch"}, func(_ context.Context, _ *mcp.CallToolRequest, in FetchIn) (*mcp.CallToolResult, any, error) {
		return text(fixtureFetch(in)), nil, nil
	})
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "initialize" {
				return nil, fmt.Errorf("this server speaks 2026-07-28 only: initialize is refused")
			}
			return next(ctx, method, req)
		}
	})
	_ = s.Run(context.Background(), &mcp.StdioTransport{})
}
