package tools

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"unicode/utf8"

	"github.com/rooted-dev/rooted/backend/permissions"
	"github.com/rooted-dev/rooted/backend/tool"
	"github.com/rooted-dev/rooted/backend/webfetch"
)

//go:embed web_fetch.md
var webFetchDoc string

// webWindow is how much of a page's text one call returns; the rest is read with offset, from the cache.
const webWindow = 100_000

type webFetchIn struct {
	URL    string `json:"url" jsonschema:"the https:// URL to fetch (http:// is upgraded)" tool:"nonempty"`
	Offset int    `json:"offset,omitempty" jsonschema:"byte offset into the page's text to read from (a previous result's next_offset)" tool:"min=0"`
}

type webFetchOut struct {
	URL        string `json:"url"`
	Status     int    `json:"status"`
	MediaType  string `json:"media_type,omitempty"`
	Title      string `json:"title,omitempty"`
	Content    string `json:"content"`
	Offset     int    `json:"offset,omitempty"`
	NextOffset int    `json:"next_offset,omitempty"`
	TotalBytes int    `json:"total_bytes"`
	Truncated  bool   `json:"truncated"`
	Cached     bool   `json:"cached"`
	RedirectTo string `json:"redirect_to,omitempty"`
}

func webFetch(d Deps) *tool.Tool {
	return tool.New(tool.Def{
		Name: "web_fetch", Title: "Fetch web page", Description: webFetchDoc, TextCarries: []string{"content"},
		Idempotent: true,
		Examples:   []string{`{"url": "https://docs.python.org/3/library/json.html"}`, `{"url": "https://go.dev/doc/effective_go", "offset": 100000}`},
	}, func(ctx context.Context, in webFetchIn) (webFetchOut, error) {
		u, err := webfetch.Parse(in.URL)
		if err != nil {
			return webFetchOut{}, fetchError(in.URL, err)
		}
		host := webfetch.Host(u)
		if err := webfetch.CheckLiteral(host); err != nil {
			return webFetchOut{}, fetchError(u.String(), err)
		}
		rules := d.rules()
		if err := d.mayFetch(ctx, host, rules); err != nil {
			return webFetchOut{}, err
		}
		// A redirect to another host is followed only where a rule allows that host: the user was asked about
		// this call's host, not about wherever it leads.
		follow := func(h string) bool { return permissions.DecideDomain(h, rules).Action == permissions.Allow }
		if d.Web == nil {
			return webFetchOut{}, &tool.Error{
				Code: tool.CodeFetchFailed, Message: "this program has no HTTP client (rooted leaves it out to start fast); run web_fetch through rooted-mcp (rooted call does so by itself when it is installed beside it), rooted mcp or the window",
				Details: map[string]any{"fetcher": "none"},
			}
		}
		page, err := d.Web.Fetch(ctx, u, follow)
		if err != nil {
			return webFetchOut{}, fetchError(u.String(), err)
		}
		return window(page, in.Offset), nil
	})
}

// rules are the open project's permission rules.
func (d Deps) rules() []permissions.Rule {
	info, err := d.Session.Info()
	if err != nil {
		return nil
	}
	return d.projectSettings(info.Root).Rules
}

// mayFetch decides a fetch from host: a deny rule refuses; an allow rule lets it go; otherwise the face must have
// asked the user about this call (webfetch.WithApproval: the window's card, an MCP client's elicitation). A face
// that cannot ask (the CLI) is refused with how to allow the domain.
func (d Deps) mayFetch(ctx context.Context, host string, rules []permissions.Rule) error {
	dec := permissions.DecideDomain(host, rules)
	switch {
	case dec.Action == permissions.Deny:
		return fetchDenied(host, dec.Rule)
	case dec.Action == permissions.Allow && dec.Rule != nil:
		return nil
	case webfetch.Approved(ctx, host):
		return nil
	}
	path := "Rooted's settings.json"
	if d.Settings != nil {
		path = d.Settings.Path()
	}
	return &tool.Error{
		Code: tool.CodePermissionDenied,
		Message: fmt.Sprintf("fetching from %s needs the user's approval, and nobody was asked here; nothing was fetched. To allow it, the user adds "+
			"the rule {\"action\": \"allow\", \"tool\": \"web_fetch\", \"domain\": %q} for this project (Rooted's Settings, Permissions; or the project's rules in %s)", host, host, path),
		Details: map[string]any{"domain": host, "allow_rule": map[string]string{"action": "allow", "tool": "web_fetch", "domain": host}},
	}
}

// window cuts a page's text to webWindow bytes from offset, at a character boundary.
func window(p webfetch.Page, offset int) webFetchOut {
	out := webFetchOut{URL: p.URL, Status: p.Status, MediaType: p.MediaType, Title: p.Title, TotalBytes: len(p.Content), Cached: p.Cached, RedirectTo: p.RedirectTo}
	text := p.Content
	offset = min(offset, len(text))
	for offset > 0 && offset < len(text) && !utf8.RuneStart(text[offset]) {
		offset--
	}
	end := min(len(text), offset+webWindow)
	for end < len(text) && end > offset && !utf8.RuneStart(text[end]) {
		end--
	}
	out.Content, out.Offset = text[offset:end], offset
	if end < len(text) {
		out.Truncated, out.NextOffset = true, end
	}
	return out
}

// fetchError maps a fetch's failure to a code: a refused address is permission_denied (no approval changes it), a
// refused media type unsupported_media, a body over the cap too_large, anything else fetch_failed.
func fetchError(where string, err error) *tool.Error {
	var (
		ae *webfetch.AddressError
		me *webfetch.MediaError
		te *webfetch.TooLargeError
		se *webfetch.SchemeError
		ne net.Error
	)
	switch {
	case errors.As(err, &ae):
		return &tool.Error{Code: tool.CodePermissionDenied, Message: ae.Error() + "; nothing was fetched", Details: map[string]any{"address": ae.Addr.String(), "reason": ae.Reason}}
	case errors.As(err, &me):
		return &tool.Error{Code: tool.CodeUnsupportedMedia, Message: me.Error(), Details: map[string]any{"media_type": me.MediaType}}
	case errors.As(err, &te):
		return &tool.Error{Code: tool.CodeTooLarge, Message: te.Error(), Details: map[string]any{"limit": te.Limit}}
	case errors.As(err, &se):
		return &tool.Error{Code: tool.CodeInvalidArgument, Field: "url", Message: se.Error()}
	case errors.As(err, &ne) && ne.Timeout():
		return &tool.Error{Code: tool.CodeFetchFailed, Message: fmt.Sprintf("%s: timed out: %v", where, err)}
	}
	return &tool.Error{Code: tool.CodeFetchFailed, Message: fmt.Sprintf("%s: %v", where, err)}
}

// fetchDenied is the error of a fetch a deny rule refuses.
func fetchDenied(host string, r *permissions.Rule) *tool.Error {
	return &tool.Error{
		Code:    tool.CodePermissionDenied,
		Message: fmt.Sprintf("fetching from %s is refused by the rule \"deny %s\" of this project (the user's settings); nothing was fetched", host, domainRuleText(r)),
		Details: map[string]any{"domain": host, "rule": r},
	}
}

// domainRuleText is a web_fetch rule as Settings shows it.
func domainRuleText(r *permissions.Rule) string {
	if r.Domain == "" {
		return r.Tool
	}
	return r.Tool + " " + r.Domain
}

// ApprovedCall is ctx for running a call the user was just asked about and approved: for web_fetch, its URL's host
// may be fetched this once (mayFetch). Other tools' approvals are decided before the call and need nothing here.
func ApprovedCall(ctx context.Context, name string, args []byte) context.Context {
	if name != "web_fetch" {
		return ctx
	}
	var in webFetchIn
	if json.Unmarshal(args, &in) != nil {
		return ctx
	}
	u, err := webfetch.Parse(in.URL)
	if err != nil {
		return ctx
	}
	return webfetch.WithApproval(ctx, webfetch.Host(u))
}

// checkFetch is Check for web_fetch: the URL's domain decides (a rule for it, or ask: the first fetch from a domain
// asks), and Suggest is the domain "Always for this domain" would allow.
func checkFetch(args []byte, rules []permissions.Rule) CheckResult {
	var in webFetchIn
	if err := json.Unmarshal(args, &in); err != nil {
		return CheckResult{Error: tool.Errorf(tool.CodeInvalidArgument, "arguments: %v", err)}
	}
	u, err := webfetch.Parse(in.URL)
	if err != nil {
		return CheckResult{Error: fetchError(in.URL, err)}
	}
	host := webfetch.Host(u)
	if e := webfetch.CheckLiteral(host); e != nil {
		return CheckResult{Error: fetchError(u.String(), e)}
	}
	dec := permissions.DecideDomain(host, rules)
	switch dec.Action {
	case permissions.Deny:
		return CheckResult{Decision: dec, Error: fetchDenied(host, dec.Rule)}
	case "":
		dec = permissions.Decision{Action: permissions.Ask, Why: "the first fetch from " + host + " asks"}
	}
	return CheckResult{Decision: dec, Suggest: host}
}
