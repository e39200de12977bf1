package tools

import (
	"fmt"
	"strings"

	"github.com/rooted-dev/rooted/backend/search"
	"github.com/rooted-dev/rooted/backend/tool"
)

// ModelText is a search as grep prints it: path:line:text for a match and path-line-text for its context, the lines of
// a file together (a blank line between files), then one line with the counts and, once, whether it was cut.
func (r searchFilesOut) ModelText() string { return r.ModelTextWithin(0) }

// ModelTextWithin is ModelText with as many whole matches (or files) as fit budget bytes (0: all), the counts line
// then saying how many were shown and how to narrow the search to see the rest.
func (r searchFilesOut) ModelTextWithin(budget int) string {
	var b, block strings.Builder
	// fits says whether b with block after it still leaves room for the counts line within the budget.
	fits := func() bool { return budget <= 0 || b.Len()+block.Len() <= budget-400 }
	shown := -1 // how many matches or files were shown before the budget ran out; -1: all
	switch {
	case len(r.Matches) > 0:
		prev, end := "", 0
		for i, m := range r.Matches {
			block.Reset() // a match goes in whole, with its context, or not at all
			if m.Path != prev && prev != "" {
				block.WriteByte('\n')
			} else if m.Path == prev && len(m.Before) > 0 && m.Line-len(m.Before) > end+1 {
				block.WriteString("--\n")
			}
			for j, l := range m.Before {
				if n := m.Line - len(m.Before) + j; m.Path != prev || n > end {
					fmt.Fprintf(&block, "%s-%d-%s\n", quotedName(m.Path), n, l)
				}
			}
			fmt.Fprintf(&block, "%s:%d:%s\n", quotedName(m.Path), m.Line, m.Text)
			for j, l := range m.After {
				fmt.Fprintf(&block, "%s-%d-%s\n", quotedName(m.Path), m.Line+1+j, l)
			}
			if !fits() {
				shown = i
				break
			}
			b.WriteString(block.String())
			prev, end = m.Path, m.Line+len(m.After)
		}
		b.WriteByte('\n')
	case len(r.Files) > 0:
		for i, f := range r.Files {
			block.Reset()
			fmt.Fprintf(&block, "%s:%d\n", quotedName(f.Path), f.Count)
			if !fits() {
				shown = i
				break
			}
			b.WriteString(block.String())
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
	// A search stopped at its limit counted only what it had searched by then.
	atLeast := ""
	if r.Truncated {
		atLeast = "at least "
	}
	fmt.Fprintf(&b, "(%s%d %s", atLeast, r.Total, unit)
	if n := len(r.Files) + distinctPaths(r.Matches); n > 0 {
		fmt.Fprintf(&b, " in %s%s", atLeast, tool.Plural(n, "file"))
	}
	fmt.Fprintf(&b, "; %s searched", tool.Plural(r.FilesSearched, "file"))
	if r.Truncated {
		fmt.Fprintf(&b, "; stopped at the limit of %d", r.Limit)
	}
	switch {
	case shown >= 0:
		what := "matches"
		if len(r.Files) > 0 {
			what = "files"
		}
		fmt.Fprintf(&b, "; only the first %d %s are shown, to this client's limit of %d bytes a result: narrow the search (path, glob, a rarer query) or ask for output files or count", shown, what, budget)
	case r.Truncated:
		b.WriteString(": narrow the search or raise limit")
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
