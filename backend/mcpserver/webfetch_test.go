package mcpserver

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rooted-dev/rooted/backend/permissions"
	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/webfetch/httpfetch"
	"github.com/rooted-dev/rooted/backend/webfetch/webfetchtest"
)

// The first fetch from a domain asks the client's user, in both protocol eras: accept fetches it this once (the
// next fetch from it asks again), decline refuses it with nothing fetched, and a client that cannot ask gets
// permission_denied naming the rule that would allow the domain.
func TestFetchFromANewDomainIsAnElicitation(t *testing.T) {
	for _, era := range []string{"2025-06-18", "2026-07-28"} {
		for _, c := range []struct {
			name    string
			answer  string
			fetched bool
			refusal string
		}{
			{"accept", "accept", true, ""},
			{"decline", "decline", false, "did not approve fetching from docs.example.com"},
			{"no elicitation", "", false, `"domain": "docs.example.com"`},
		} {
			t.Run(era+"/"+c.name, func(t *testing.T) {
				web := webfetchtest.New(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					w.Header().Set("Content-Type", "text/plain")
					fmt.Fprint(w, "the page")
				}), "docs.example.com")
				site := web.Sites["docs.example.com"]
				s, err := New(Options{Root: project(t), web: httpfetch.New(web.Options())})
				if err != nil {
					t.Fatal(err)
				}
				opts, asked := answering(t, c.answer, "Fetch from docs.example.com?")
				cs := connectWith(t, s, opts, era)
				res, got := call(t, cs, "web_fetch", map[string]any{"url": site.URL("/")})
				if fetched := site.Hits() == 1; fetched != c.fetched || (c.fetched && !strings.Contains(got["text"].(string), "the page")) {
					t.Errorf("fetched: %v, want %v (%v)", fetched, c.fetched, got["text"])
				}
				if c.refusal != "" {
					deniedSaying(t, res, got, c.refusal)
				}
				if c.answer != "" && *asked != 1 {
					t.Errorf("asked %d times", *asked)
				}
				if c.answer == "accept" {
					call(t, cs, "web_fetch", map[string]any{"url": site.URL("/other")})
					if *asked != 2 {
						t.Errorf("Allow once covered the next fetch too: asked %d times", *asked)
					}
				}
			})
		}
	}
}

// allowedFetch serves a project whose rules allow fetching from a local TLS site, docs.example.com, and returns the
// server, a connected client and the URL of a page there.
func allowedFetch(t *testing.T) (*Server, *mcp.ClientSession, string) {
	t.Helper()
	web := webfetchtest.New(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<html><head><title>Docs</title></head><body><h1>Docs</h1><p>Some text.</p></body></html>")
	}), "docs.example.com")
	root := project(t)
	path, err := settings.DefaultPath()
	if err != nil {
		t.Fatal(err)
	}
	rule := permissions.Rule{Action: permissions.Allow, Tool: "web_fetch", Domain: "docs.example.com"}
	if err := settings.NewStore(path).SetProject(root, settings.Project{Rules: []permissions.Rule{rule}}); err != nil {
		t.Fatal(err)
	}
	s, err := New(Options{Root: root, web: httpfetch.New(web.Options())})
	if err != nil {
		t.Fatal(err)
	}
	return s, connect(t, s), web.Sites["docs.example.com"].URL("/")
}
