package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/tool"
	"github.com/rooted-dev/rooted/backend/tools"
	"github.com/rooted-dev/rooted/backend/webfetch/httpfetch"
	"github.com/rooted-dev/rooted/backend/websearch/searchtest"
)

// rooted tools lists web_search only once the user's settings name an endpoint, with the registry's declaration;
// rooted call web_search says not_configured and which setting to make until then; once set, rooted (no HTTP
// client) says it has no fetcher, which hands the call to rooted-mcp, and rooted-mcp's call searches.
func TestCallWebSearch(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	root := t.TempDir()
	sx := searchtest.New(t, searchtest.Result{URL: "https://go.dev/doc/", Title: "Documentation", Content: "The Go docs."})
	listed := func() *tool.Spec {
		t.Helper()
		code, out, _ := run(t, "", "tools", "--json")
		var specs []tool.Spec
		if code != ExitOK || json.Unmarshal([]byte(out), &specs) != nil {
			t.Fatalf("rooted tools --json (exit %d):\n%s", code, out)
		}
		for i := range specs {
			if specs[i].Name == "web_search" {
				return &specs[i]
			}
		}
		return nil
	}
	if listed() != nil {
		t.Error("rooted tools lists web_search with no endpoint set")
	}
	code, out, _ := run(t, "", "call", "web_search", "--root", root, `{"query": "go docs"}`)
	if code != ExitToolError || !strings.Contains(out, `"code": "not_configured"`) || !strings.Contains(out, "search_endpoint") {
		t.Errorf("rooted call with no endpoint (exit %d):\n%s", code, out)
	}

	path, _ := settings.DefaultPath()
	store := settings.NewStore(path)
	if err := store.UpdateUser(func(u *settings.User) error { u.SearchEndpoint = sx.URL; return nil }); err != nil {
		t.Fatal(err)
	}
	spec := listed()
	if spec == nil {
		t.Fatal("rooted tools does not list web_search with an endpoint set")
	}
	want, _ := tools.Registry(tools.Deps{Settings: store}).Lookup("web_search")
	a, _ := json.Marshal(spec.InputSchema)
	b, _ := json.Marshal(want.Spec().InputSchema)
	if spec.Description != want.Spec().Description || spec.Title != want.Spec().Title || !reflect.DeepEqual(a, b) {
		t.Errorf("rooted tools' declaration differs from the registry's:\n%s\n%s", a, b)
	}
	if code, out, _ := run(t, "", "tools"); code != ExitOK || !strings.Contains(out, "web_search (reaches the web)") {
		t.Errorf("rooted tools (exit %d):\n%s", code, out)
	}
	code, out, _ = run(t, "", "call", "web_search", "--root", root, `{"query": "go docs"}`)
	if code != ExitToolError || !strings.Contains(out, `"fetcher": "none"`) || len(sx.Queries()) != 0 {
		t.Errorf("rooted's own call, without rooted-mcp beside it (exit %d):\n%s", code, out)
	}
	var stdout bytes.Buffer
	code = CallWith(context.Background(), IO{Stdout: &stdout, Stderr: os.Stderr}, []string{"web_search", "--root", filepath.Clean(root), `{"query": "go docs"}`}, httpfetch.New(httpfetch.Options{}))
	if code != ExitOK || !strings.Contains(stdout.String(), `"url": "https://go.dev/doc/"`) || !strings.Contains(stdout.String(), `"endpoint": "`+strings.TrimPrefix(sx.URL, "http://")+`"`) {
		t.Errorf("rooted-mcp's call (exit %d):\n%s", code, stdout.String())
	}
}
