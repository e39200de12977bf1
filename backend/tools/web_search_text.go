package tools

import (
	"fmt"
	"strings"

	"github.com/rooted-dev/rooted/backend/tool"
)

// ModelText is a search as a model reads it: how many results, for what, from where, then each result's title,
// URL and snippet, numbered.
func (r webSearchOut) ModelText() string {
	if len(r.Results) == 0 {
		return fmt.Sprintf("No results for %q from %s. Try other or fewer words.", r.Query, r.Endpoint)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s for %q from %s (read one with web_fetch):\n", tool.Plural(len(r.Results), "result"), r.Query, r.Endpoint)
	for i, res := range r.Results {
		title := res.Title
		if title == "" {
			title = "(no title)"
		}
		fmt.Fprintf(&b, "\n%d. %s\n   %s\n", i+1, title, res.URL)
		if res.Snippet != "" {
			fmt.Fprintf(&b, "   %s\n", res.Snippet)
		}
	}
	return strings.TrimRight(b.String(), "\n")
}
