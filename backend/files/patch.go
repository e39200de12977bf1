package files

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
)

// Sentinel errors of patching.
var (
	ErrNoMatch         = errors.New("search text not found")
	ErrMultipleMatches = errors.New("search text matches more than once")
	ErrEmptySearch     = errors.New("search text is empty")
	ErrNoChange        = errors.New("search and replace are the same")
)

// Edit replaces Search with Replace: exactly one occurrence, or all of them with ReplaceAll.
type Edit struct {
	Search, Replace string
	ReplaceAll      bool
}

// EditError says which edit failed and why, with what a model needs to correct it.
type EditError struct {
	Index, Of int // 0-based index of the failing edit, and how many edits there were
	Err       error
	Count     int   // matches found (ErrMultipleMatches)
	Lines     []int // 1-based lines of the matches (first 20)
	HintLine  int   // 1-based line of the nearest similar text (ErrNoMatch), 0 when none
	Hint      string
}

func (e *EditError) Error() string {
	prefix := ""
	if e.Of > 1 {
		prefix = fmt.Sprintf("edit %d of %d: ", e.Index+1, e.Of)
	}
	return prefix + e.Err.Error()
}

func (e *EditError) Unwrap() error { return e.Err }

// maxHintLines bounds the similar-line search so a huge file does not make a failed patch slow.
const maxHintLines = 50_000

// Loose says that an edit's search text matched only with whitespace ignored (see ApplyEdits).
type Loose struct {
	Edit int // 0-based index of the edit
	Line int // 1-based line of the file where its search text was found
}

// ApplyEdits applies edits in order, each to the result of the ones before, and returns the new content and the
// number of replacements each made. It fails on the first edit that does not apply; the caller writes nothing then.
// When the content uses CRLF and a search text uses bare LF (as models write), the edit is matched with CRLF and
// its replacement written with CRLF, so the file's line endings are kept.
func ApplyEdits(content string, edits []Edit) (string, []int, error) {
	after, counts, _, err := applyEdits(content, edits)
	return after, counts, err
}

// applyEdits is ApplyEdits, and also matches a search text that misses only by whitespace: when no exact match
// exists but exactly one run of whole lines equals the search's lines with each line's leading and trailing
// whitespace ignored (indentation, trailing spaces, line endings), that run is replaced, the replacement is
// re-indented from the search's indentation to the file's, and the edit is reported in loose. Two or more such
// runs are never guessed between: the edit fails with ErrNoMatch and a hint naming their lines.
func applyEdits(content string, edits []Edit) (string, []int, []Loose, error) {
	counts := make([]int, len(edits))
	var loose []Loose
	crlf := strings.Contains(content, "\r\n")
	for i, ed := range edits {
		fail := func(err error) *EditError { return &EditError{Index: i, Of: len(edits), Err: err} }
		if ed.Search == "" {
			return "", nil, nil, fail(ErrEmptySearch)
		}
		if ed.Search == ed.Replace {
			return "", nil, nil, fail(ErrNoChange)
		}
		search, replace := ed.Search, ed.Replace
		n := strings.Count(content, search)
		if n == 0 && crlf && strings.Contains(search, "\n") && !strings.Contains(search, "\r\n") {
			search, replace = toCRLF(search), toCRLF(replace)
			n = strings.Count(content, search)
		}
		switch {
		case n == 0:
			spans := looseMatches(content, ed.Search, 20)
			if len(spans) == 1 {
				content = spans[0].replace(content, ed, crlf)
				counts[i] = 1
				loose = append(loose, Loose{Edit: i, Line: spans[0].line})
				continue
			}
			e := fail(ErrNoMatch)
			if len(spans) > 1 {
				lines := make([]int, len(spans))
				for j, sp := range spans {
					lines[j] = sp.line
				}
				e.HintLine, e.Lines = lines[0], lines
				e.Hint = fmt.Sprintf("with whitespace ignored it matches at %d places (lines %s), so it was not applied: copy the exact text of one, with a surrounding line to make it unique", len(spans), joinLines(lines))
			} else {
				e.HintLine, e.Hint = nearest(content, ed.Search)
			}
			return "", nil, nil, e
		case n > 1 && !ed.ReplaceAll:
			e := fail(ErrMultipleMatches)
			e.Count, e.Lines = n, matchLines(content, search, 20)
			return "", nil, nil, e
		}
		if ed.ReplaceAll {
			content = strings.ReplaceAll(content, search, replace)
		} else {
			content = strings.Replace(content, search, replace, 1)
		}
		counts[i] = n
	}
	return content, counts, loose, nil
}

func joinLines(ns []int) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = fmt.Sprint(n)
	}
	return strings.Join(parts, ", ")
}

// looseSpan is a run of whole lines of the content: bytes [start, end) without the last line's line ending.
type looseSpan struct {
	start, end int
	line       int    // 1-based
	indent     string // the leading whitespace of its first non-blank line
}

// looseMatches finds up to limit runs of whole lines equal to search's lines with each line's surrounding
// whitespace ignored. Blank lines at the search's start and end are not part of it.
func looseMatches(content, search string, limit int) []looseSpan {
	want := strings.Split(search, "\n")
	for len(want) > 0 && strings.TrimSpace(want[0]) == "" {
		want = want[1:]
	}
	for len(want) > 0 && strings.TrimSpace(want[len(want)-1]) == "" {
		want = want[:len(want)-1]
	}
	if len(want) == 0 {
		return nil
	}
	for i := range want {
		want[i] = strings.TrimSpace(want[i])
	}
	lines := strings.SplitAfter(content, "\n")
	starts := make([]int, len(lines)+1)
	for i, l := range lines {
		starts[i+1] = starts[i] + len(l)
	}
	var out []looseSpan
	for i := 0; i+len(want) <= len(lines) && i < maxHintLines && len(out) < limit; i++ {
		ok := true
		for j, w := range want {
			if strings.TrimSpace(lines[i+j]) != w {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		last := lines[i+len(want)-1]
		end := starts[i+len(want)] - (len(last) - len(strings.TrimRight(last, "\r\n")))
		out = append(out, looseSpan{start: starts[i], end: end, line: i + 1, indent: leadingSpace(lines[i])})
		i += len(want) - 1 // matches do not overlap
	}
	return out
}

// replace puts ed's replacement in place of the span. The search's blank first and last lines (and a newline it
// ends with) are not part of the span, so the replacement loses them too; its lines are moved from the search's
// indentation to the file's, so a search indented with four spaces where the file has a tab writes tabs.
func (sp looseSpan) replace(content string, ed Edit, crlf bool) string {
	search, rep := ed.Search, strings.ReplaceAll(ed.Replace, "\r\n", "\n")
	search = strings.ReplaceAll(search, "\r\n", "\n")
	if strings.HasSuffix(strings.TrimRight(search, " \t"), "\n") {
		rep = strings.TrimSuffix(rep, "\n")
	}
	if strings.HasPrefix(strings.TrimLeft(search, " \t"), "\n") {
		rep = strings.TrimPrefix(rep, "\n")
	}
	// Each indentation of the search maps to the file's at the same line; other replacement lines are shifted
	// from the search's first indentation to the file's.
	var want []string
	for _, l := range strings.Split(search, "\n") {
		if strings.TrimSpace(l) != "" || len(want) > 0 {
			want = append(want, l)
		}
	}
	indents := map[string]string{}
	for i, l := range strings.Split(content[sp.start:sp.end], "\n") {
		if i < len(want) && strings.TrimSpace(l) != "" {
			if _, ok := indents[leadingSpace(want[i])]; !ok {
				indents[leadingSpace(want[i])] = leadingSpace(l)
			}
		}
	}
	from := leadingSpace(want[0])
	lines := strings.Split(rep, "\n")
	for i, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if to, ok := indents[leadingSpace(l)]; ok {
			lines[i] = to + strings.TrimLeft(l, " \t")
		} else if strings.HasPrefix(l, from) {
			lines[i] = sp.indent + l[len(from):]
		}
	}
	rep = strings.Join(lines, "\n")
	if crlf {
		rep = toCRLF(rep)
	}
	return content[:sp.start] + rep + content[sp.end:]
}

func leadingSpace(s string) string { return s[:len(s)-len(strings.TrimLeft(s, " \t"))] }

func toCRLF(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }

func matchLines(content, search string, limit int) []int {
	var lines []int
	line, last := 1, 0
	for off := 0; len(lines) < limit; {
		i := strings.Index(content[off:], search)
		if i < 0 {
			break
		}
		line += strings.Count(content[last:off+i], "\n")
		last = off + i
		lines = append(lines, line)
		off += i + max(len(search), 1)
	}
	return lines
}

// nearest finds where the search text probably was meant to match: first the same lines with their surrounding
// whitespace ignored (a model's most common slip), else the single line most like the search's longest line.
func nearest(content, search string) (int, string) {
	lines := strings.Split(content, "\n")
	if len(lines) > maxHintLines {
		lines = lines[:maxHintLines]
	}
	want := strings.Split(strings.Trim(search, "\r\n"), "\n")
	for i := range want {
		want[i] = strings.TrimSpace(want[i])
	}
	for i := 0; i+len(want) <= len(lines); i++ {
		ok := true
		for j, w := range want {
			if strings.TrimSpace(lines[i+j]) != w {
				ok = false
				break
			}
		}
		if ok {
			return i + 1, "the text is at line " + fmt.Sprint(i+1) + " when whitespace at line starts and ends is ignored: copy its indentation exactly"
		}
	}
	probe := ""
	for _, w := range want {
		if len(w) > len(probe) {
			probe = w
		}
	}
	if probe == "" {
		return 0, ""
	}
	best, bestLine := 0.0, 0
	for i, l := range lines {
		l = strings.TrimSpace(l)
		if l == "" || len(l) > 2*len(probe)+10 || len(probe) > 2*len(l)+10 {
			continue
		}
		if s := similarity(probe, l); s > best {
			best, bestLine = s, i+1
		}
	}
	if best < 0.5 {
		return 0, ""
	}
	text := strings.TrimSpace(lines[bestLine-1])
	if len(text) > 200 {
		text = text[:200] + "…"
	}
	return bestLine, fmt.Sprintf("the most similar line is %d: %q", bestLine, text)
}

// similarity is 1 - (edit distance / longer length), on at most the first 300 bytes of each string.
func similarity(a, b string) float64 {
	a, b = a[:min(len(a), 300)], b[:min(len(b), 300)]
	if a == b {
		return 1
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return 1 - float64(prev[len(b)])/float64(max(len(a), len(b)))
}

// PatchResult describes an applied patch.
type PatchResult struct {
	WriteResult
	// Replaced is the number of replacements each edit made.
	Replaced []int
	// Before and After are the whole content, for diffs and snapshots.
	Before, After string
	// Loose lists the edits that matched only with whitespace ignored.
	Loose []Loose
}

// MaxPatchBytes bounds the size of a file that can be patched in memory.
const MaxPatchBytes = 64 << 20

// Patch applies edits to rel and writes the result atomically, all or nothing. check runs against the file as
// read; the write then also fails if the file changes between that read and the rename.
func Patch(root *os.Root, rel string, edits []Edit, check Precondition) (PatchResult, error) {
	p, fi, err := planPatch(root, rel, edits, check)
	if err != nil {
		return PatchResult{}, err
	}
	unchanged := func(now fs.FileInfo, _ func() ([]byte, error)) error {
		if now.Size() != fi.Size() || !now.ModTime().Equal(fi.ModTime()) {
			return &Error{Op: "patch", Path: p.Rel, Err: ErrChangedDuringWrite}
		}
		return nil
	}
	w, err := Write(root, p.Rel, []byte(p.After), unchanged)
	if err != nil {
		return PatchResult{}, err
	}
	p.WriteResult = w
	return p, nil
}

// PlanPatch is Patch without the write: every check a patch makes (check included) and the content it would
// write, with the file left as it is. Its Info is the file as read.
func PlanPatch(root *os.Root, rel string, edits []Edit, check Precondition) (PatchResult, error) {
	p, _, err := planPatch(root, rel, edits, check)
	return p, err
}

func planPatch(root *os.Root, rel string, edits []Edit, check Precondition) (PatchResult, fs.FileInfo, error) {
	fail := func(err error) (PatchResult, fs.FileInfo, error) { return PatchResult{}, nil, err }
	rel, err := FollowLinks(root, rel)
	if err != nil {
		return fail(err)
	}
	if inGitDirReally(root, rel) {
		return fail(&Error{Op: "patch", Path: rel, Err: ErrProtected, Detail: "git runs hooks and the programs its config names outside any sandbox"})
	}
	fi, err := root.Stat(rel)
	if err != nil {
		return fail(err)
	}
	if fi.IsDir() {
		return fail(&Error{Op: "patch", Path: rel, Err: ErrIsDir})
	}
	if fi.Size() > MaxPatchBytes {
		return fail(&Error{
			Op: "patch", Path: rel, Err: ErrTooLarge, Size: fi.Size(),
			Detail: fmt.Sprintf("%s; files over %s cannot be patched", HumanSize(fi.Size()), HumanSize(MaxPatchBytes)),
		})
	}
	before, err := ReadRegular(root, "patch", rel)
	if err != nil {
		return fail(err)
	}
	if bytes.IndexByte(before[:min(len(before), sniffLen)], 0) >= 0 {
		return fail(&Error{
			Op: "patch", Path: rel, Err: ErrBinary, Size: fi.Size(),
			Detail: fmt.Sprintf("%s, looks like %s", HumanSize(fi.Size()), guessType(before[:min(len(before), sniffLen)])),
		})
	}
	if check != nil {
		if err := check(fi, func() ([]byte, error) { return before, nil }); err != nil {
			return fail(err)
		}
	}
	after, counts, loose, err := applyEdits(string(before), edits)
	if err != nil {
		var ee *EditError
		if errors.As(err, &ee) {
			return fail(&Error{Op: "patch", Path: rel, Err: ee})
		}
		return fail(err)
	}
	w := WriteResult{Rel: rel, Size: int64(len(after)), Info: fi}
	return PatchResult{WriteResult: w, Replaced: counts, Before: string(before), After: after, Loose: loose}, fi, nil
}

// ErrChangedDuringWrite says another program changed the file between the read and the write of a patch.
var ErrChangedDuringWrite = errors.New("file changed on disk while it was being patched")
