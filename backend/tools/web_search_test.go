package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rooted-dev/rooted/backend/permissions"
	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/tool"
	"github.com/rooted-dev/rooted/backend/webfetch/httpfetch"
	"github.com/rooted-dev/rooted/backend/websearch"
	"github.com/rooted-dev/rooted/backend/websearch/searchtest"
)

// searchFixture is a project and the user's settings file; the web client is the faces' own (httpfetch), whose
// Search serves web_search.
func searchFixture(t *testing.T, rules ...permissions.Rule) (reg *tool.Registry, d Deps, root string) {
	t.Helper()
	d, root = projectDeps(t, settings.Project{Rules: rules})
	d.Web = httpfetch.New(httpfetch.Options{})
	return Registry(d), d, root
}

func setEndpoint(t *testing.T, d Deps, endpoint string) {
	t.Helper()
	if err := d.Settings.UpdateUser(func(u *settings.User) error { u.SearchEndpoint = endpoint; return nil }); err != nil {
		t.Fatal(err)
	}
}

func listed(reg *tool.Registry) bool { return slices.Contains(reg.Names(), "web_search") }

// Off by default: no model, client or CLI listing sees web_search, and a direct call is not_configured naming the
// setting and the file; once the user sets an endpoint, the same registry lists it and a search returns the
// stand-in's results, capped, with the endpoint's host, and a text form a model reads.
func TestWebSearchIsOffUntilTheUserSetsAnEndpoint(t *testing.T) {
	var results []searchtest.Result
	for i := range 12 {
		results = append(results, searchtest.Result{URL: fmt.Sprintf("https://docs%d.example.com/os-root", i), Title: fmt.Sprintf("os.Root %d", i), Content: strings.Repeat("Root confines ", 60)})
	}
	sx := searchtest.New(t, results...)
	reg, d, _ := searchFixture(t)
	if listed(reg) {
		t.Fatal("web_search is listed without an endpoint")
	}
	for _, s := range reg.Specs() {
		if s.Name == "web_search" {
			t.Fatal("web_search is in Specs without an endpoint")
		}
	}
	_, e := reg.Call(context.Background(), "web_search", []byte(`{"query": "os.Root"}`))
	if e == nil || e.Code != tool.CodeNotConfigured || !strings.Contains(e.Message, "search_endpoint") || !strings.Contains(e.Message, d.Settings.Path()) || !strings.Contains(e.Message, "Settings, Agent") {
		t.Fatalf("a call with no endpoint: %v", e)
	}

	setEndpoint(t, d, sx.URL)
	if !listed(reg) {
		t.Fatal("web_search is not listed once the endpoint is set")
	}
	res, e := reg.CallForms(context.Background(), "web_search", []byte(`{"query": "go os.Root symlinks"}`))
	if e != nil {
		t.Fatal(e)
	}
	var out webSearchOut
	if err := json.Unmarshal(res.JSON(), &out); err != nil {
		t.Fatal(err)
	}
	host := strings.TrimPrefix(sx.URL, "http://")
	if out.Query != "go os.Root symlinks" || out.Endpoint != host || len(out.Results) != websearch.MaxResults || out.Results[0].URL != "https://docs0.example.com/os-root" {
		t.Errorf("result: %+v", out)
	}
	for _, r := range out.Results {
		if len(r.Snippet) > websearch.MaxSnippet {
			t.Errorf("a snippet of %d bytes", len(r.Snippet))
		}
	}
	text := res.Text()
	if !strings.HasPrefix(text, fmt.Sprintf("10 results for \"go os.Root symlinks\" from %s", host)) || !strings.Contains(text, "\n1. os.Root 0\n   https://docs0.example.com/os-root\n   Root confines") || strings.Contains(text, "11.") {
		t.Errorf("text:\n%s", text)
	}
	if one := (webSearchOut{Query: "q", Endpoint: host, Results: out.Results[:1]}).ModelText(); !strings.HasPrefix(one, "1 result for \"q\"") {
		t.Errorf("one result's text:\n%s", one)
	}
	if q := sx.Queries(); !slices.Equal(q, []string{"go os.Root symlinks"}) {
		t.Errorf("the stand-in was asked %q", q)
	}
	if _, e := reg.Call(context.Background(), "web_search", []byte(`{"query": "`+strings.Repeat("w", websearch.MaxQuery+1)+`"}`)); e == nil || e.Code != tool.CodeInvalidArgument || e.Field != "query" {
		t.Errorf("an over-long query: %v", e)
	}
	setEndpoint(t, d, "ftp://searx.example.org")
	if listed(reg) {
		t.Error("web_search is listed with an endpoint that is not http(s)")
	}
	if _, e := reg.Call(context.Background(), "web_search", []byte(`{"query": "x"}`)); e == nil || e.Code != tool.CodeNotConfigured || !strings.Contains(e.Message, "not an http:// or https:// URL") {
		t.Errorf("a bad endpoint: %v", e)
	}
}

// Where searches go is the user's alone: an endpoint written into the project's entry of the settings file (or
// anywhere else but "user") turns nothing on, and the server it names is never asked.
func TestProjectSettingsCannotSetTheSearchEndpoint(t *testing.T) {
	sx := searchtest.New(t, searchtest.Result{URL: "https://evil.example.com/", Title: "x"})
	reg, d, root := searchFixture(t)
	file := map[string]any{
		"projects":        map[string]any{root: map[string]any{"search_endpoint": sx.URL, "web_search": sx.URL, "user": map[string]any{"search_endpoint": sx.URL}}},
		"search_endpoint": sx.URL,
	}
	b, _ := json.Marshal(file)
	if err := os.WriteFile(d.Settings.Path(), b, 0o600); err != nil {
		t.Fatal(err)
	}
	if p, err := d.Settings.Project(root); err != nil {
		t.Fatalf("the project's settings no longer read: %v", err)
	} else if listed(reg) {
		t.Errorf("web_search is listed from the project's settings %+v", p)
	}
	if _, e := reg.Call(context.Background(), "web_search", []byte(`{"query": "secrets"}`)); e == nil || e.Code != tool.CodeNotConfigured {
		t.Errorf("a call: %v, want not_configured", e)
	}
	if q := sx.Queries(); len(q) != 0 {
		t.Errorf("the project's endpoint was asked %q", q)
	}
}

// The endpoint may be on this machine (a local SearXNG, as here); the results' URLs are not exempt by coming from
// it: web_fetch of a loopback result is refused, with nothing fetched, through the same web client.
func TestSearchResultsOnThisMachineAreNotFetched(t *testing.T) {
	var hits atomic.Int32
	inside := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1); fmt.Fprint(w, "internal") }))
	t.Cleanup(inside.Close)
	sx := searchtest.New(t, searchtest.Result{URL: inside.URL + "/admin", Title: "internal"}, searchtest.Result{URL: "http://169.254.169.254/latest/meta-data/", Title: "metadata"})
	reg, d, _ := searchFixture(t)
	setEndpoint(t, d, sx.URL+"/")
	raw, e := reg.Call(context.Background(), "web_search", []byte(`{"query": "admin"}`))
	if e != nil {
		t.Fatal(e)
	}
	var out webSearchOut
	_ = json.Unmarshal(raw, &out)
	if len(out.Results) != 2 {
		t.Fatalf("results: %+v", out.Results)
	}
	for _, r := range out.Results {
		_, e := fetchCall(t, context.Background(), reg, r.URL)
		if e == nil || e.Code != tool.CodePermissionDenied || e.Details["reason"] == nil {
			t.Errorf("web_fetch of the result %s: %v, want permission_denied for its address", r.URL, e)
		}
	}
	if hits.Load() != 0 {
		t.Errorf("the server on this machine was reached %d times", hits.Load())
	}
}

// web_search's rules are a tool's like any other: deny refuses every face's call before it runs (the endpoint is
// not asked), ask and allow decide the window's card; without a rule the window asks, as it does for any tool
// that is not read-only.
func TestWebSearchRules(t *testing.T) {
	for _, c := range []struct {
		name   string
		rules  []permissions.Rule
		action permissions.Action
		denied bool
	}{
		{"no rule", nil, "", false},
		{"allow", []permissions.Rule{{Action: permissions.Allow, Tool: "web_search"}}, permissions.Allow, false},
		{"ask", []permissions.Rule{{Action: permissions.Ask, Tool: "web_search"}}, permissions.Ask, false},
		{"deny", []permissions.Rule{{Action: permissions.Deny, Tool: "web_search"}}, permissions.Deny, true},
		{"deny over allow", []permissions.Rule{{Action: permissions.Allow, Tool: "web_search"}, {Action: permissions.Deny, Tool: "web_search"}}, permissions.Deny, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			sx := searchtest.New(t, searchtest.Result{URL: "https://go.dev/", Title: "Go"})
			reg, d, _ := searchFixture(t, c.rules...)
			setEndpoint(t, d, sx.URL)
			args := []byte(`{"query": "go"}`)
			check := d.Check(reg, "web_search", args)
			if check.Decision.Action != c.action || (check.Error != nil) != c.denied {
				t.Errorf("check: %+v", check)
			}
			if !listed(reg) {
				t.Errorf("names: %v", reg.Names()) // a denied tool is still listed: the call says why it is refused
			}
			spec, _ := reg.Lookup("web_search")
			if spec.Spec().ReadOnly {
				t.Error("web_search is read-only, so the window would never ask about it")
			}
			_, e := reg.Call(context.Background(), "web_search", args)
			if c.denied {
				if e == nil || e.Code != tool.CodePermissionDenied || !strings.Contains(e.Message, "deny web_search") {
					t.Errorf("a denied call: %v", e)
				}
				if len(sx.Queries()) != 0 {
					t.Error("a denied search reached the endpoint")
				}
				return
			}
			if e != nil || len(sx.Queries()) != 1 {
				t.Errorf("call: %v, queries %q", e, sx.Queries())
			}
		})
	}
}

// A failed search is fetch_failed naming the endpoint, with the status and reason in its details; in rooted,
// which links no HTTP client, the call says fetcher "none", which the CLI hands to rooted-mcp.
func TestWebSearchErrors(t *testing.T) {
	reg, d, _ := searchFixture(t)
	missing := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(missing.Close)
	setEndpoint(t, d, missing.URL)
	_, e := reg.Call(context.Background(), "web_search", []byte(`{"query": "x"}`))
	if e == nil || e.Code != tool.CodeFetchFailed || !strings.Contains(e.Message, missing.URL) || e.Details["status"] != 404 || e.Details["endpoint"] != missing.URL {
		t.Errorf("a 404: %v %v", e, e.Details)
	}
	d.Web = nil
	_, e = Registry(d).Call(context.Background(), "web_search", []byte(`{"query": "x"}`))
	if e == nil || e.Code != tool.CodeFetchFailed || e.Details["fetcher"] != "none" {
		t.Errorf("no HTTP client: %v", e)
	}
}
