package tool

import (
	"fmt"
	"strings"
)

// Every agent caps what a tool result may put in front of its model (Claude Code 25,000 tokens of MCP output, Codex
// about 12 KB, Gemini CLI 8 KB + 32 KB, opencode about 51 KB), and each cuts in its own way: a cut in the middle of a
// line, a pointer to a file the tools cannot read, no word on how to get the rest. A face that knows its client's
// cap asks for the text form within a budget instead, and the result cuts itself where a model can read on from.

// Fitter is implemented by results whose text form fits a budget in a way of their own: a file's lines up to the
// budget and the offset to read on from, a command's head and tail, a search's first matches and how to narrow it.
type Fitter interface {
	// ModelTextWithin is ModelText in at most budget bytes (give or take a closing line's worth).
	ModelTextWithin(budget int) string
}

// TextWithin is the text form within budget bytes: whole when it fits or budget <= 0, else cut by the result
// itself (Fitter) or, for any other result, at a line's end with a closing line saying what was left out and how
// to ask for less (Def.Narrow).
func (r Result) TextWithin(budget int) string {
	if budget <= 0 {
		return r.Text()
	}
	if f, ok := r.value.(Fitter); ok {
		// A result's own cut is trusted to within a closing line; past that (a single match longer than the
		// budget), the generic cut holds the line.
		return Fit(f.ModelTextWithin(budget), budget, r.tool.spec.Narrow)
	}
	return Fit(r.Text(), budget, r.tool.spec.Narrow)
}

// noteRoom is what a closing note takes at most: a cut leaves it room within the budget.
const noteRoom = 320

// Fit is text within budget bytes: whole when it fits, else its first lines (a line longer than what is left is
// cut at a rune boundary) and a closing line saying how much was left out and, when narrow is set, how to ask for
// less. A budget of 0 or less keeps it whole.
func Fit(text string, budget int, narrow string) string {
	if budget <= 0 || len(text) <= budget {
		return text
	}
	head := Head(text, max(budget-noteRoom, budget/2))
	rest := text[len(head):]
	var b strings.Builder
	b.Grow(len(head) + noteRoom)
	b.WriteString(head)
	if head != "" && !strings.HasSuffix(head, "\n") {
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "(cut here: %s and %s more were left out, past this client's limit of %d bytes a result", Plural(strings.Count(rest, "\n")+1, "line"), Plural(len(rest), "byte"), budget)
	if narrow != "" {
		b.WriteString("; " + narrow)
	}
	b.WriteString(")")
	return b.String()
}

// Head is the longest prefix of text within n bytes that ends a line, or, when the first line alone is longer, that
// line cut at a rune boundary.
func Head(text string, n int) string {
	if len(text) <= n {
		return text
	}
	if i := strings.LastIndexByte(text[:n], '\n'); i >= 0 {
		return text[:i+1]
	}
	return text[:runeStart(text, n)]
}

// Tail is the longest suffix of text within n bytes that starts a line, or, when the last line alone is longer, that
// line's end from a rune boundary.
func Tail(text string, n int) string {
	if len(text) <= n {
		return text
	}
	from := len(text) - n
	if i := strings.IndexByte(text[from:], '\n'); i >= 0 && from+i+1 < len(text) {
		return text[from+i+1:]
	}
	for from < len(text) && !startsRune(text[from]) {
		from++
	}
	return text[from:]
}

// HeadAndTail is text within n bytes as a terminal's scrollback is worth reading: its first lines and, for the most
// part, its last (where a build's errors and a test's verdict are), with a line naming how much was left out
// between them. Text that fits comes back whole.
func HeadAndTail(text string, n int) string {
	if len(text) <= n {
		return text
	}
	const marker = 96
	head := Head(text, max(0, (n-marker)/4))
	tail := Tail(text[len(head):], max(0, n-marker-len(head)))
	left := text[len(head) : len(text)-len(tail)]
	return fmt.Sprintf("%s[… %s (%s) left out here …]\n%s", head, Plural(strings.Count(left, "\n"), "line"), Plural(len(left), "byte"), tail)
}

func runeStart(s string, n int) int {
	for n > 0 && !startsRune(s[n]) {
		n--
	}
	return n
}

func startsRune(b byte) bool { return b&0xC0 != 0x80 }
