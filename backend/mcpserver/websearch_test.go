package mcpserver

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

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
			// Not declared, yet a call gets the tool's own error saying what to set, as rooted call does (a client
			// may hold a list from when the setting was on).
			notConfigured(t, cs)
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

// notConfigured checks that a call to web_search is the tool's not_configured failure naming the setting, a tool
// result rather than the protocol's "unknown tool".
func notConfigured(t *testing.T, cs *mcp.ClientSession) {
	t.Helper()
	_, got := call(t, cs, "web_search", map[string]any{"query": "go docs"})
	e, _ := got["error"].(map[string]any)
	if e["code"] != "not_configured" || !strings.Contains(got["text"].(string), "search_endpoint") {
		t.Errorf("a call while web_search is off: %v", got)
	}
}

// Saving a search endpoint while a client is connected brings web_search into its list, and taking it back takes
// the tool out, without restarting the server: the client is told tools/list_changed each time (on the session in
// the 2025 era, on its subscriptions/listen stream in the 2026-07-28 one), lists again, and sees the change; a call
// while the tool is out is not_configured. Before anything was saved the settings folder does not exist, which
// the watch must wait for.
func TestWebSearchFollowsTheSettingsWhileConnected(t *testing.T) {
	sx := searchtest.New(t, searchtest.Result{URL: "https://go.dev/doc/", Title: "Documentation", Content: "The Go docs."})
	for _, c := range []struct {
		era         string
		folderSaved bool // the settings folder exists when the server starts
	}{
		{"2025-06-18", false},
		{"2025-06-18", true},
		{"2026-07-28", false},
		{"2026-07-28", true},
	} {
		name := c.era + "/no settings yet"
		if c.folderSaved {
			name = c.era + "/settings saved before"
		}
		t.Run(name, func(t *testing.T) {
			root := project(t)
			store := settings.NewStore(filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "rooted", "settings.json"))
			setEndpoint := func(e string) {
				t.Helper()
				if err := store.UpdateUser(func(u *settings.User) error { u.SearchEndpoint = e; return nil }); err != nil {
					t.Fatal(err)
				}
			}
			if c.folderSaved {
				setEndpoint("")
			}
			s, err := New(Options{Root: root})
			if err != nil {
				t.Fatal(err)
			}
			changed := make(chan struct{}, 16)
			cs := connectWith(t, s, &mcp.ClientOptions{ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
				changed <- struct{}{}
			}}, c.era)
			listed := func() bool {
				t.Helper()
				list, err := cs.ListTools(context.Background(), nil)
				if err != nil {
					t.Fatal(err)
				}
				return slices.ContainsFunc(list.Tools, func(tl *mcp.Tool) bool { return tl.Name == "web_search" })
			}
			// A bound on waiting for a notification that must come, not a measure of speed.
			notified := func(what string) {
				t.Helper()
				select {
				case <-changed:
				case <-time.After(10 * time.Second):
					t.Fatalf("%s: no notifications/tools/list_changed", what)
				}
			}
			if listed() {
				t.Fatal("web_search is listed with no endpoint")
			}
			notConfigured(t, cs)

			setEndpoint(sx.URL)
			notified("endpoint saved")
			if !listed() {
				t.Fatal("web_search is not listed after the endpoint was saved")
			}
			_, got := call(t, cs, "web_search", map[string]any{"query": "go docs"})
			if text, _ := got["text"].(string); !strings.Contains(text, "1. Documentation\n   https://go.dev/doc/") {
				t.Errorf("a search once the endpoint is saved: %v", got)
			}

			setEndpoint("")
			notified("endpoint taken back")
			if listed() {
				t.Fatal("web_search is still listed after the endpoint was taken back")
			}
			asked := len(sx.Queries())
			notConfigured(t, cs)
			if len(sx.Queries()) != asked {
				t.Errorf("a call after the endpoint was taken back asked it: %q", sx.Queries())
			}

			// The settings folder removed and made again by the next save: the watch follows it down again.
			if err := os.RemoveAll(filepath.Dir(store.Path())); err != nil {
				t.Fatal(err)
			}
			setEndpoint(sx.URL)
			notified("endpoint saved in a new settings folder")
			if !listed() {
				t.Fatal("web_search is not listed after the endpoint was saved in a new settings folder")
			}
		})
	}
}
