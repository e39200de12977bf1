package tools

import (
	"fmt"
	"strings"
)

// ModelText is the paths found one a line, newest first as the result holds them, then the count.
func (r findFilesOut) ModelText() string {
	var b strings.Builder
	for _, f := range r.Files {
		b.WriteString(quotedName(f.Path) + "\n")
	}
	fmt.Fprintf(&b, "(%d files under %s", r.Total, quotedName(r.Path))
	if r.Truncated {
		fmt.Fprintf(&b, "; the first %d shown: narrow the pattern or raise limit", len(r.Files))
	}
	b.WriteString(")")
	return b.String()
}
