// Package websearch is what web_search's declaration needs of the web without an HTTP client: the endpoint the
// user configures (a SearXNG instance, or a URL template with {query} answering SearXNG's JSON), the URL of one
// search, the answer read into capped results, the error that names the endpoint, and the Searcher a face
// provides. The client itself is httpsearch, which the CLI does not link (net/http would cost every command's
// start-up).
//
// Guarantees: ParseEndpoint accepts only http and https URLs with a host and no user info; the query reaches the
// endpoint only as an escaped value in its URL (SearXNG's q parameter, or the template's {query}), so it cannot
// change which host or path is asked. Decode keeps at most MaxResults results, each with an http or https URL, a
// title of at most MaxTitle bytes and a snippet of at most MaxSnippet bytes, cut at character boundaries.
//
// Not guaranteed: what the endpoint answers is the endpoint's; its results' URLs are the web's, which web_fetch
// checks like any other (private addresses refused): only the endpoint itself may be on this machine.
package websearch

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"
)

// Caps on what one search returns.
const (
	MaxResults = 10
	MaxTitle   = 200
	MaxSnippet = 400
	// MaxQuery bounds a query, in bytes: a search is words, not a document.
	MaxQuery = 500
)

// Placeholder is where a template endpoint takes the query.
const Placeholder = "{query}"

// Endpoint is a search service the user named: a SearXNG instance's base URL (searched at /search?q=…&format=json)
// or a URL template with {query}.
type Endpoint struct {
	raw      string
	base     *url.URL
	template bool
}

// ParseEndpoint reads the user's setting. A URL with {query} is a template; any other is a SearXNG instance's
// address (https://searx.example.org, http://localhost:8888; a path ending in /search is taken as the search
// page itself). Either may be on this machine or its network: the endpoint is the user's own choice.
func ParseEndpoint(raw string) (Endpoint, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return Endpoint{}, fmt.Errorf("no search endpoint is set")
	}
	e := Endpoint{raw: raw, template: strings.Contains(raw, Placeholder)}
	probe := raw
	if e.template {
		probe = strings.ReplaceAll(raw, Placeholder, "q")
	}
	u, err := url.Parse(probe)
	if err != nil {
		return Endpoint{}, fmt.Errorf("the search endpoint %q is not a URL: %v", raw, err)
	}
	if s := strings.ToLower(u.Scheme); s != "http" && s != "https" {
		return Endpoint{}, fmt.Errorf("the search endpoint %q is not an http:// or https:// URL", raw)
	}
	if u.Hostname() == "" {
		return Endpoint{}, fmt.Errorf("the search endpoint %q has no host", raw)
	}
	if u.User != nil {
		// It would be repeated in every error the model reads.
		return Endpoint{}, fmt.Errorf("the search endpoint %q carries a user name or password; put the instance behind an address that needs none", raw)
	}
	if u.Fragment != "" {
		return Endpoint{}, fmt.Errorf("the search endpoint %q has a #fragment, which is never sent", raw)
	}
	if e.template {
		// {query} only where an escaped value may stand, after the host: the query cannot choose where it goes.
		rest := raw[strings.Index(raw, "://")+3:]
		if host := rest[:strings.IndexAny(rest+"/", "/?")]; strings.Contains(host, Placeholder) {
			return Endpoint{}, fmt.Errorf("the search endpoint %q has %s in its host; it belongs in the path or the query string", raw, Placeholder)
		}
		return e, nil
	}
	if u.RawQuery != "" {
		return Endpoint{}, fmt.Errorf("the search endpoint %q has a query string: give the instance's address, or a template with %s where the query goes", raw, Placeholder)
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	if !strings.HasSuffix(u.Path, "/search") {
		u.Path += "/search"
	}
	u.RawPath = ""
	e.base = u
	return e, nil
}

// IsZero reports an endpoint that was never parsed.
func (e Endpoint) IsZero() bool { return e.raw == "" }

// String is the endpoint as the user wrote it.
func (e Endpoint) String() string { return e.raw }

// Host is the endpoint's host (and port, when it names one), as results and errors name it.
func (e Endpoint) Host() string {
	if u, err := url.Parse(e.URL("q")); err == nil {
		return u.Host
	}
	return ""
}

// URL is the address of a search for query: SearXNG's /search with q and format=json, or the template with the
// query escaped in place of {query}.
func (e Endpoint) URL(query string) string {
	if e.template {
		return strings.ReplaceAll(e.raw, Placeholder, url.QueryEscape(query))
	}
	u := *e.base
	v := url.Values{"q": {query}, "format": {"json"}}
	u.RawQuery = v.Encode()
	return u.String()
}

// Result is one search result.
type Result struct {
	Title   string `json:"title"`
	URL     string `json:"url"`
	Snippet string `json:"snippet,omitempty"`
}

// Searcher runs a search at an endpoint (httpsearch.Client).
type Searcher interface {
	Search(ctx context.Context, e Endpoint, query string) ([]Result, error)
}

// Error is a search that failed at its endpoint: unreachable, an HTTP status other than 200, an answer that is not
// SearXNG's JSON, or one over the size cap. It names the endpoint and the reason.
type Error struct {
	Endpoint string
	// Status is the HTTP status, when the endpoint answered.
	Status int
	Reason string
	// Timeout says the endpoint did not answer in time.
	Timeout bool
}

func (e *Error) Error() string {
	return fmt.Sprintf("the search endpoint %s: %s", e.Endpoint, e.Reason)
}

// answer is the part of SearXNG's JSON answer that is read.
type answer struct {
	Results *[]struct {
		Title   any `json:"title"`
		URL     any `json:"url"`
		Content any `json:"content"`
	} `json:"results"`
}

// Decode reads a SearXNG JSON answer into at most MaxResults results. A result without an http or https URL is
// left out; titles and snippets are put on one line and cut to MaxTitle and MaxSnippet bytes. An answer that is not
// a JSON object with a results array is an error saying what it is instead.
func Decode(body []byte) ([]Result, error) {
	var a answer
	if err := json.Unmarshal(body, &a); err != nil || a.Results == nil {
		return nil, fmt.Errorf("the answer is %s, not SearXNG's JSON (an object with a results array)", describe(body))
	}
	out := make([]Result, 0, min(len(*a.Results), MaxResults))
	for _, r := range *a.Results {
		if len(out) == MaxResults {
			break
		}
		link, _ := r.URL.(string)
		u, err := url.Parse(strings.TrimSpace(link))
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			continue
		}
		title, _ := r.Title.(string)
		snippet, _ := r.Content.(string)
		out = append(out, Result{Title: Cut(oneLine(title), MaxTitle), URL: u.String(), Snippet: Cut(oneLine(snippet), MaxSnippet)})
	}
	return out, nil
}

// describe says what a body that is not the expected JSON looks like, for the error.
func describe(body []byte) string {
	s := strings.TrimSpace(string(body))
	switch {
	case s == "":
		return "empty"
	case strings.HasPrefix(strings.ToLower(s), "<!doctype html"), strings.HasPrefix(strings.ToLower(s), "<html"):
		return "an HTML page"
	case json.Valid(body):
		return "JSON without a results array"
	}
	return fmt.Sprintf("not JSON (%q)", Cut(oneLine(s), 60))
}

// oneLine collapses runs of white space (newlines included) to one space.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// Cut shortens s to at most n bytes at a character boundary, ending it with … when it cut.
func Cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	end := n - len("…")
	for end > 0 && !utf8.RuneStart(s[end]) {
		end--
	}
	return strings.TrimRight(s[:end], " ") + "…"
}
