package mcpserver

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/tools"
	"github.com/rooted-dev/rooted/backend/websearch/searchtest"
)

// web_search is in tools/list only when the user's settings name a search endpoint, and then with the very
// declaration the registry gives the window and the model (name, title, description, input schema); a call
// searches the endpoint; without one the tool does not exist for the client.
func TestWebSearchListedOnlyWithAnEndpoint(t *testing.T) {
	sx := searchtest.New(t, searchtest.Result{URL: "https://go.dev/doc/", Title: "Documentation", Content: "The Go docs."})
	for _, configured := range []bool{false, true} {
		root := project(t)
		store := settings.NewStore(filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "rooted", "settings.json"))
		if configured {
			if err := store.UpdateUser(func(u *settings.User) error { u.SearchEndpoint = sx.URL; return nil }); err != nil {
				t.Fatal(err)
			}
		}
		s, err := New(Options{Root: root})
		if err != nil {
			t.Fatal(err)
		}
		cs := connect(t, s)
		list, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		var listed bool
		for _, tl := range list.Tools {
			if tl.Name != "web_search" {
				continue
			}
			listed = true
			want, _ := tools.Registry(tools.Deps{Settings: store}).Lookup("web_search")
			spec := want.Spec()
			gotSchema, _ := json.Marshal(tl.InputSchema)
			wantSchema, _ := json.Marshal(spec.InputSchema)
			var a, b any
			_ = json.Unmarshal(gotSchema, &a)
			_ = json.Unmarshal(wantSchema, &b)
			if tl.Annotations == nil || !*tl.Annotations.OpenWorldHint || tl.Annotations.ReadOnlyHint {
				t.Errorf("annotations: %+v; a search reaches the web and is not read-only", tl.Annotations)
			}
			if tl.Title != spec.Title || tl.Description != spec.Description || !reflect.DeepEqual(a, b) {
				t.Errorf("MCP's declaration differs from the registry's:\n%s %q\n%s", tl.Title, gotSchema, wantSchema)
			}
		}
		if listed != configured {
			t.Errorf("configured %v: listed %v", configured, listed)
		}
		if !configured {
			// Not declared, so the protocol has no such tool (rooted call answers not_configured: the CLI's tests).
			if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "web_search", Arguments: map[string]any{"query": "go docs"}}); err == nil || !strings.Contains(err.Error(), "unknown tool") {
				t.Errorf("unconfigured call: %v", err)
			}
			if len(sx.Queries()) != 0 {
				t.Errorf("the endpoint was asked %q", sx.Queries())
			}
			continue
		}
		_, got := call(t, cs, "web_search", map[string]any{"query": "go docs"})
		if text, _ := got["text"].(string); !strings.Contains(text, "1. Documentation\n   https://go.dev/doc/\n   The Go docs.") {
			t.Errorf("configured call: %v", got)
		}
	}
}
