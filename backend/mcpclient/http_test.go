package mcpclient

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/tool"
)

// TestStreamableHTTP: a server over Streamable HTTP gets the headers of its entry with every request (a server
// that wants a token refuses the calls without it), and its tools are called like a program's.
func TestStreamableHTTP(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "http-fixture", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "add"}, func(_ context.Context, _ *mcp.CallToolRequest, in struct{ A, B float64 }) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "sum"}}, StructuredContent: map[string]float64{"sum": in.A + in.B}}, nil, nil
	})
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer s3cret" {
			http.Error(w, "no token", http.StatusUnauthorized)
			return
		}
		handler.ServeHTTP(w, r)
	}))
	defer ts.Close()
	for _, c := range []struct {
		name    string
		headers map[string]string
		ok      bool
	}{
		{"with its token", map[string]string{"Authorization": "Bearer s3cret"}, true},
		{"without", nil, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			base := t.TempDir()
			root := filepath.Join(base, "project")
			store := settings.NewStore(filepath.Join(base, "settings.json"))
			if err := store.SetProject(root, settings.Project{MCPServers: map[string]settings.MCPServer{"web": {URL: ts.URL, Headers: c.headers}}}); err != nil {
				t.Fatal(err)
			}
			m := New(Options{Root: root, Settings: store, DataDir: filepath.Join(base, "data")})
			defer m.Close()
			reg := tool.NewRegistry(nil).WithDynamic(m)
			out, e := reg.Call(context.Background(), "mcp__web__add", []byte(`{"A": 2, "B": 3}`))
			if c.ok && (e != nil || !strings.Contains(string(out), `"structured_content":{"sum":5}`)) {
				t.Fatalf("call: %s %v", out, e)
			}
			if !c.ok {
				if e == nil || e.Code != tool.CodeServerFailed {
					t.Fatalf("a call without the token: %s %v", out, e)
				}
				if st := m.Status(); st[0].State != "failed" || st[0].Transport != "http" {
					t.Errorf("status: %+v", st)
				}
			}
		})
	}
}
