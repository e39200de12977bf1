package tools

import (
	"fmt"
	"strings"

	"github.com/rooted-dev/rooted/backend/files"
)

// ModelText is a listing one entry a line: a folder with a trailing slash, a file with its size, a link with its
// target; ignored entries are marked; then the count, and whether the list was cut.
func (r listDirectoryOut) ModelText() string {
	var b strings.Builder
	for _, e := range r.Entries {
		switch e.Kind {
		case files.KindDir:
			b.WriteString(quotedName(e.Name) + "/")
		case files.KindSymlink:
			b.WriteString(quotedName(e.Name) + " -> " + quotedName(e.Target))
			if e.TargetKind == files.KindDir {
				b.WriteString("/")
			}
		case files.KindFile:
			fmt.Fprintf(&b, "%s  %s", quotedName(e.Name), size(e.Size))
		default:
			b.WriteString(quotedName(e.Name) + "  (" + e.Kind + ")")
		}
		if e.Ignored {
			b.WriteString("  (ignored)")
		}
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "(%s: %d entries", quotedName(r.Path), r.Total)
	if r.Truncated {
		fmt.Fprintf(&b, "; the first %d shown: raise limit or list a subfolder", len(r.Entries))
	}
	b.WriteString(")")
	return b.String()
}

// size is a byte count as people read it: 812 B, 4.2 KiB, 3.0 MiB.
func size(n int64) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB", float64(n)/1024)
	case n < 1<<30:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
}
