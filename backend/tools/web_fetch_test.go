package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/permissions"
	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/tool"
	"github.com/rooted-dev/rooted/backend/webfetch/httpfetch"
	"github.com/rooted-dev/rooted/backend/webfetch/webfetchtest"
)

type webFetchResult struct {
	URL        string `json:"url"`
	Status     int    `json:"status"`
	Content    string `json:"content"`
	Cached     bool   `json:"cached"`
	RedirectTo string `json:"redirect_to"`
	Truncated  bool   `json:"truncated"`
	NextOffset int    `json:"next_offset"`
	TotalBytes int    `json:"total_bytes"`
}

// webFixture is a project, the user's settings for it, and two sites over local TLS.
func webFixture(t *testing.T, rules ...permissions.Rule) (*tool.Registry, Deps, *webfetchtest.Web) {
	t.Helper()
	web := webfetchtest.New(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/redirect":
			http.Redirect(w, r, r.URL.Query().Get("to"), http.StatusFound)
		case "/long":
			w.Header().Set("Content-Type", "text/plain")
			fmt.Fprint(w, strings.Repeat("é", webWindow)) // two bytes each: the window cuts between characters
		default:
			w.Header().Set("Content-Type", "text/markdown")
			fmt.Fprintf(w, "# %s\n", r.Host)
		}
	}), "docs.example.com", "other.example.com")
	d, _ := projectDeps(t, settings.Project{Rules: rules})
	d.Web = httpfetch.New(web.Options())
	return Registry(d), d, web
}

func fetchCall(t *testing.T, ctx context.Context, reg *tool.Registry, raw string) (webFetchResult, *tool.Error) {
	t.Helper()
	args, _ := json.Marshal(map[string]string{"url": raw})
	ctx = ApprovedCall(ctx, "web_fetch", args)
	var out webFetchResult
	b, e := reg.Call(ctx, "web_fetch", args)
	if e == nil {
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatal(err)
		}
	}
	return out, e
}

// Without a rule, a fetch runs only when the face asked the user (the window's card, MCP's elicitation); a face
// that cannot ask (the CLI) is refused with the rule that would allow the domain. Check says ask, and suggests the
// domain.
func TestWebFetchAsksForANewDomain(t *testing.T) {
	reg, d, web := webFixture(t)
	docs := web.Sites["docs.example.com"]
	args, _ := json.Marshal(map[string]string{"url": docs.URL("/")})
	_, e := reg.Call(context.Background(), "web_fetch", args)
	if e == nil || e.Code != tool.CodePermissionDenied || !strings.Contains(e.Message, `"domain": "docs.example.com"`) || docs.Hits() != 0 {
		t.Fatalf("unasked fetch: %v (hits %d)", e, docs.Hits())
	}
	check := d.Check(reg, "web_fetch", args)
	if check.Error != nil || check.Decision.Action != permissions.Ask || check.Suggest != "docs.example.com" {
		t.Fatalf("check: %+v", check)
	}
	out, e := fetchCall(t, context.Background(), reg, docs.URL("/"))
	if e != nil || !strings.Contains(out.Content, "# docs.example.com") {
		t.Fatalf("approved fetch: %+v %v", out, e)
	}
}

// With "always for this domain", fetches from it run without asking, the second from the cache; a redirect to
// another domain is not followed but reported, and fetching it is a new question; a deny rule refuses.
func TestWebFetchAllowedDomain(t *testing.T) {
	reg, d, web := webFixture(t,
		permissions.Rule{Action: permissions.Allow, Tool: "web_fetch", Domain: "docs.example.com"},
		permissions.Rule{Action: permissions.Deny, Tool: "web_fetch", Domain: "*.evil.example.com"})
	docs, other := web.Sites["docs.example.com"], web.Sites["other.example.com"]
	for i, wantCached := range []bool{false, true} {
		out, e := fetchCall(t, context.Background(), reg, docs.URL("/page"))
		if e != nil || out.Cached != wantCached || docs.Hits() != 1 {
			t.Fatalf("fetch %d: %+v %v hits=%d", i, out, e, docs.Hits())
		}
	}
	to := other.URL("/")
	args, _ := json.Marshal(map[string]string{"url": docs.URL("/redirect?to=" + url.QueryEscape(to))})
	b, e := reg.Call(context.Background(), "web_fetch", args)
	var out webFetchResult
	if e != nil || json.Unmarshal(b, &out) != nil || out.RedirectTo != to || other.Hits() != 0 {
		t.Fatalf("redirect: %s %v", b, e)
	}
	if text := reg.TextOf("web_fetch", b); !strings.Contains(text, to) {
		t.Errorf("the model is not told where the redirect leads:\n%s", text)
	}
	next, _ := json.Marshal(map[string]string{"url": to})
	if check := d.Check(reg, "web_fetch", next); check.Decision.Action != permissions.Ask {
		t.Errorf("the redirect's domain does not ask: %+v", check)
	}
	deny, _ := json.Marshal(map[string]string{"url": "https://a.evil.example.com/"})
	if check := d.Check(reg, "web_fetch", deny); check.Error == nil || check.Error.Code != tool.CodePermissionDenied {
		t.Errorf("denied domain: %+v", check)
	}
	if _, e := fetchCall(t, context.Background(), reg, "https://a.evil.example.com/"); e == nil || e.Code != tool.CodePermissionDenied {
		t.Errorf("denied domain, though approved: %v", e)
	}
}

// A literal address on this machine is refused before anyone is asked; a long page comes in windows that cut
// between characters and read on from the cache.
func TestWebFetchAddressesAndWindows(t *testing.T) {
	reg, d, web := webFixture(t, permissions.Rule{Action: permissions.Allow, Tool: "web_fetch", Domain: "docs.example.com"})
	for _, raw := range []string{"http://127.0.0.1/", "http://169.254.169.254/latest/meta-data/"} {
		args, _ := json.Marshal(map[string]string{"url": raw})
		if check := d.Check(reg, "web_fetch", args); check.Error == nil || check.Error.Code != tool.CodePermissionDenied {
			t.Errorf("check %s: %+v", raw, check)
		}
		if _, e := fetchCall(t, context.Background(), reg, raw); e == nil || e.Code != tool.CodePermissionDenied || e.Details["reason"] == nil {
			t.Errorf("fetch %s: %v", raw, e)
		}
	}
	docs := web.Sites["docs.example.com"]
	out, e := fetchCall(t, context.Background(), reg, docs.URL("/long"))
	if e != nil || !out.Truncated || out.NextOffset != webWindow || out.TotalBytes != 2*webWindow {
		t.Fatalf("first window: truncated=%v next=%d total=%d %v", out.Truncated, out.NextOffset, out.TotalBytes, e)
	}
	args, _ := json.Marshal(map[string]any{"url": docs.URL("/long"), "offset": out.NextOffset + 1})
	b, e := reg.Call(context.Background(), "web_fetch", args)
	if e != nil || json.Unmarshal(b, &out) != nil || out.Truncated || !out.Cached || len(out.Content) != webWindow || docs.Hits() != 1 {
		t.Fatalf("second window: %d bytes cached=%v %v hits=%d", len(out.Content), out.Cached, e, docs.Hits())
	}
}

// A face without an HTTP client (rooted, the CLI) still applies the rules first, and refuses an allowed fetch with
// the fetcher "none", which the CLI answers by handing the call to rooted-mcp.
func TestWebFetchWithoutAClient(t *testing.T) {
	_, d, web := webFixture(t, permissions.Rule{Action: permissions.Allow, Tool: "web_fetch", Domain: "docs.example.com"})
	d.Web = nil
	reg := Registry(d)
	_, e := fetchCall(t, context.Background(), reg, web.Sites["docs.example.com"].URL("/"))
	if e == nil || e.Code != tool.CodeFetchFailed || e.Details["fetcher"] != "none" || web.Sites["docs.example.com"].Hits() != 0 {
		t.Fatalf("allowed fetch without a client: %v", e)
	}
	if _, e := reg.Call(context.Background(), "web_fetch", []byte(`{"url": "https://other.example.com/"}`)); e == nil || e.Code != tool.CodePermissionDenied {
		t.Errorf("unallowed fetch without a client: %v", e)
	}
}
