package tools

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rooted-dev/rooted/backend/files"
	"github.com/rooted-dev/rooted/backend/pdftext"
	"github.com/rooted-dev/rooted/backend/tool"
)

// readWindow is how many lines read_file's text form shows at most, as the anchors do (opencode, Claude Code): a
// model reads on with offset and limit.
const readWindow = 2000

// ModelText is what a model reads of a file: its lines numbered as cat -n numbers them (the number right-aligned, a
// tab, the line; the numbers as wide as the last one shown rather than cat's six columns, which would cost a file
// of short lines a tenth more), at most readWindow of them unless the call asked for more, then a line saying what
// was left out and how to read on.
//
// A call whose limit asks for more than readWindow lines, and gets them, wants the file in bulk: its lines come
// without numbers, after a first line naming the range, so the text is the content itself and costs about the
// file's size (a number and a tab are a fifth of a Go file's 30-byte line, more once JSON escapes the tab).
func (r readFileOut) ModelText() string { return r.ModelTextWithin(0) }

// ModelTextWithin is ModelText ending at the last whole line within budget bytes (0: no budget), with the offset
// to read on from: a client's cap never cuts a line in two or leaves the model without a way to the rest.
func (r readFileOut) ModelTextWithin(budget int) string {
	if r.Img != nil {
		return r.imageText()
	}
	window := max(readWindow, r.Limit)
	numbered := r.Limit <= readWindow || r.EndLine-r.StartLine < readWindow
	var b strings.Builder
	room := len(r.Text) + len(r.Text)/8 + 256
	if budget > 0 {
		room = min(room, budget)
	}
	b.Grow(room)
	cut := false // the budget ended the lines shown
	total := strconv.Itoa(r.TotalLines)
	if !r.TotalLinesKnown {
		total = "more than " + total
	}
	text := strings.TrimSuffix(r.Text, "\n")
	if !numbered && r.Text != "" {
		fmt.Fprintf(&b, "(lines %d-%d of %s, without line numbers since more than %d were asked for; a range of at most %d lines is numbered)\n", r.StartLine, r.EndLine, total, readWindow, readWindow)
	}
	n := r.StartLine
	shown := 0
	width := len(strconv.Itoa(max(r.StartLine, min(r.EndLine, r.StartLine+window-1))))
	var num []byte
	if r.Text != "" {
		for line := range strings.SplitSeq(text, "\n") {
			if shown == window {
				break
			}
			over := budget > 0 && b.Len()+len(line)+width+2 > budget-256
			if over && shown > 0 {
				cut = true
				break
			}
			if numbered {
				num = strconv.AppendInt(num[:0], int64(n), 10)
				for range width - len(num) {
					b.WriteByte(' ')
				}
				b.Write(num)
				b.WriteByte('\t')
			}
			if over { // a first line longer than the budget: its start, and a word on where the rest went
				b.WriteString(tool.Head(line, max(0, budget-256-b.Len())))
				fmt.Fprintf(&b, "\n(line %d is %s long and was cut to this client's limit of %d bytes a result; search_files finds text in it)", n, tool.Plural(len(line), "byte"), budget)
				return b.String()
			}
			b.WriteString(strings.TrimSuffix(line, "\r"))
			b.WriteByte('\n')
			n++
			shown++
		}
	}
	last := r.StartLine + shown - 1
	switch {
	case r.Size == 0:
		b.WriteString("(" + quotedName(r.Path) + " is empty)")
	case shown == 0:
		fmt.Fprintf(&b, "(no lines from line %d: %s has %s lines)", r.StartLine, quotedName(r.Path), total)
	case last < r.EndLine || r.Truncated:
		fmt.Fprintf(&b, "(lines %d-%d of %s; read on with offset %d", r.StartLine, last, total, last+1)
		if cut {
			fmt.Fprintf(&b, "; this client takes at most %d bytes a result", budget)
		} else if last < r.EndLine {
			fmt.Fprintf(&b, "; a call shows at most %d lines unless its limit asks for more", readWindow)
		}
		b.WriteString(")")
	case r.StartLine > 1:
		fmt.Fprintf(&b, "(lines %d-%d of %s)", r.StartLine, last, total)
	default:
		if last == 1 {
			fmt.Fprintf(&b, "(%s: 1 line)", quotedName(r.Path))
		} else {
			fmt.Fprintf(&b, "(%s: all %d lines)", quotedName(r.Path), last)
		}
	}
	if r.PDF != nil {
		fmt.Fprintf(&b, " (text extracted from a PDF of %s", tool.Plural(r.PDF.Pages, "page"))
		if r.PDF.PagesRead < r.PDF.Pages {
			fmt.Fprintf(&b, "; the text of pages after %d was not extracted, over %s", r.PDF.PagesRead, files.HumanSize(pdftext.MaxTextBytes))
		}
		b.WriteString(")")
	}
	if r.LineEnding == "crlf" || r.LineEnding == "mixed" {
		b.WriteString(" (line endings: " + r.LineEnding + ")")
	}
	return b.String()
}
