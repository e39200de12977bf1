package tools

import (
	"fmt"
	"strings"
)

// ModelText is a page as a model reads it: a line saying where it came from and what it is, the title, then the
// page's Markdown as it is, and how to read on when it was cut; a redirect to another domain says where it leads
// and how to follow it.
func (r webFetchOut) ModelText() string {
	if r.RedirectTo != "" {
		return fmt.Sprintf("%s redirected (HTTP %d) to %s, on another domain; nothing was fetched from it. To read it, call web_fetch with that URL: the user is asked about its domain.", r.URL, r.Status, r.RedirectTo)
	}
	var b strings.Builder
	b.Grow(len(r.Content) + 256)
	fmt.Fprintf(&b, "%s (HTTP %d, %s", r.URL, r.Status, r.MediaType)
	if r.Cached {
		b.WriteString(", from the cache")
	}
	b.WriteString(")\n")
	if r.Title != "" {
		b.WriteString("title: " + r.Title + "\n")
	}
	if r.Offset > 0 {
		fmt.Fprintf(&b, "(from byte %d of %d)\n", r.Offset, r.TotalBytes)
	}
	b.WriteString("\n")
	b.WriteString(r.Content)
	if r.Truncated {
		fmt.Fprintf(&b, "\n\n(cut at byte %d of %d: read on with offset %d)", r.NextOffset, r.TotalBytes, r.NextOffset)
	}
	return b.String()
}
