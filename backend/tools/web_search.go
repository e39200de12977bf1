package tools

import (
	"context"
	_ "embed"
	"errors"
	"fmt"

	"github.com/rooted-dev/rooted/backend/tool"
	"github.com/rooted-dev/rooted/backend/websearch"
)

//go:embed web_search.md
var webSearchDoc string

type webSearchIn struct {
	Query string `json:"query" jsonschema:"what to search for, as words typed into a search engine" tool:"nonempty"`
}

type webSearchOut struct {
	Query string `json:"query"`
	// Endpoint is the search service's host (and port), as the user's setting names it.
	Endpoint string             `json:"endpoint"`
	Results  []websearch.Result `json:"results"`
}

// webSearch is offered (listed to models, MCP clients and the CLI) only while the user's settings name a search
// endpoint: without one it cannot work, and a model offered it would only meet not_configured.
func webSearch(d Deps) *tool.Tool {
	return tool.New(tool.Def{
		Name: "web_search", Title: "Search the web", Description: webSearchDoc, Idempotent: true,
		Examples: []string{`{"query": "go os.Root symlink escape"}`},
		Offered:  func() bool { _, e := d.searchEndpoint(); return e == nil },
	}, func(ctx context.Context, in webSearchIn) (webSearchOut, error) {
		if len(in.Query) > websearch.MaxQuery {
			return webSearchOut{}, &tool.Error{Code: tool.CodeInvalidArgument, Field: "query", Message: fmt.Sprintf("the query is %d bytes; a search takes at most %d: use the words that matter", len(in.Query), websearch.MaxQuery)}
		}
		e, terr := d.searchEndpoint()
		if terr != nil {
			return webSearchOut{}, terr
		}
		s := d.searcher()
		if s == nil {
			return webSearchOut{}, &tool.Error{
				Code: tool.CodeFetchFailed, Message: "this program has no HTTP client (rooted leaves it out to start fast); run web_search through rooted-mcp (rooted call does so by itself when it is installed beside it), rooted mcp or the window",
				Details: map[string]any{"fetcher": "none"},
			}
		}
		results, err := s.Search(ctx, e, in.Query)
		if err != nil {
			return webSearchOut{}, searchError(e, err)
		}
		if results == nil {
			results = []websearch.Result{}
		}
		return webSearchOut{Query: in.Query, Endpoint: e.Host(), Results: results}, nil
	})
}

// searchEndpoint is the endpoint the user's settings name, or not_configured saying which setting turns
// web_search on. Only the user's own settings are read: a project has no say in where searches go.
func (d Deps) searchEndpoint() (websearch.Endpoint, *tool.Error) {
	path := "Rooted's settings.json"
	raw := ""
	if d.Settings != nil {
		path = d.Settings.Path()
		u, err := d.Settings.User()
		if err != nil {
			return websearch.Endpoint{}, tool.Errorf(tool.CodeNotConfigured, "web_search is off: the user's settings (%s) cannot be read: %v", path, err)
		}
		raw = u.SearchEndpoint
	}
	if raw == "" {
		return websearch.Endpoint{}, &tool.Error{
			Code: tool.CodeNotConfigured,
			Message: "web_search is off: it needs a search endpoint, which only the user sets: Rooted's Settings, Agent, Web search endpoint " +
				"(or \"user\": {\"search_endpoint\": \"http://localhost:8888\"} in " + path + "): a SearXNG instance with JSON output on, or a URL with {query} answering the same JSON",
			Details: map[string]any{"setting": "search_endpoint"},
		}
	}
	e, err := websearch.ParseEndpoint(raw)
	if err != nil {
		return websearch.Endpoint{}, &tool.Error{
			Code: tool.CodeNotConfigured, Message: "web_search is off: " + err.Error() + " (the user's setting search_endpoint in " + path + ")",
			Details: map[string]any{"setting": "search_endpoint"},
		}
	}
	return e, nil
}

// searcher is what runs searches: Search when set, else the web client when it does (httpfetch.Client); nil in
// rooted, which links no HTTP client.
func (d Deps) searcher() websearch.Searcher {
	if d.Search != nil {
		return d.Search
	}
	s, _ := d.Web.(websearch.Searcher)
	return s
}

// searchError is a failed search as fetch_failed, naming the endpoint and the reason.
func searchError(e websearch.Endpoint, err error) *tool.Error {
	var se *websearch.Error
	if !errors.As(err, &se) {
		se = &websearch.Error{Endpoint: e.String(), Reason: err.Error()}
	}
	details := map[string]any{"endpoint": se.Endpoint, "reason": se.Reason}
	if se.Status != 0 {
		details["status"] = se.Status
	}
	if se.Timeout {
		details["timeout"] = true
	}
	return &tool.Error{Code: tool.CodeFetchFailed, Message: se.Error() + "; nothing was found", Details: details}
}
