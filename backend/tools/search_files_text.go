package tools

import (
	"fmt"
	"strings"

	"github.com/rooted-dev/rooted/backend/search"
	"github.com/rooted-dev/rooted/backend/tool"
)

// ModelText is a search as grep prints it: path:line:text for a match and path-line-text for its context, the lines of
// a file together (a blank line between files), then one line with the counts and, once, whether it was cut.
func (r searchFilesOut) ModelText() string {
	var b strings.Builder
	switch {
	case len(r.Matches) > 0:
		prev, end := "", 0
		for _, m := range r.Matches {
			if m.Path != prev && prev != "" {
				b.WriteByte('\n')
			} else if m.Path == prev && len(m.Before) > 0 && m.Line-len(m.Before) > end+1 {
				b.WriteString("--\n")
			}
			for i, l := range m.Before {
				if n := m.Line - len(m.Before) + i; m.Path != prev || n > end {
					fmt.Fprintf(&b, "%s-%d-%s\n", quotedName(m.Path), n, l)
				}
			}
			fmt.Fprintf(&b, "%s:%d:%s\n", quotedName(m.Path), m.Line, m.Text)
			for i, l := range m.After {
				fmt.Fprintf(&b, "%s-%d-%s\n", quotedName(m.Path), m.Line+1+i, l)
			}
			prev, end = m.Path, m.Line+len(m.After)
		}
		b.WriteByte('\n')
	case len(r.Files) > 0:
		for _, f := range r.Files {
			fmt.Fprintf(&b, "%s:%d\n", quotedName(f.Path), f.Count)
		}
		b.WriteByte('\n')
	}
	unit := "match"
	if r.Total != 1 {
		unit = "matches"
	}
	if r.Total == 0 {
		fmt.Fprintf(&b, "(no matches for %q in %s; %s searched)", r.Query, quotedName(r.Path), tool.Plural(r.FilesSearched, "file"))
		return b.String()
	}
	fmt.Fprintf(&b, "(%d %s", r.Total, unit)
	if n := len(r.Files) + distinctPaths(r.Matches); n > 0 {
		fmt.Fprintf(&b, " in %s", tool.Plural(n, "file"))
	}
	fmt.Fprintf(&b, "; %s searched", tool.Plural(r.FilesSearched, "file"))
	if r.Truncated {
		fmt.Fprintf(&b, "; truncated at the limit of %d: narrow the search or raise limit", r.Limit)
	}
	b.WriteString(")")
	return b.String()
}

// distinctPaths counts the files matches are in (they come grouped by file).
func distinctPaths(ms []search.Match) int {
	n, prev := 0, ""
	for _, m := range ms {
		if m.Path != prev {
			n, prev = n+1, m.Path
		}
	}
	return n
}
