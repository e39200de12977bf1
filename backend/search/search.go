package search

import (
	"bytes"
	"context"
	"errors"
	"io"
	"regexp"
	"regexp/syntax"
	"runtime"
	"slices"
	"sync"
	"unicode/utf8"
)

// Output modes.
const (
	OutputContent = "content"
	OutputFiles   = "files"
	OutputCount   = "count"
)

// Options describe one search.
type Options struct {
	Query           string
	Regex           bool
	CaseInsensitive bool
	Glob            *Glob
	Context         int // lines before and after each match (content output)
	Output          string
	Limit           int // matches (content), files (files, count); 0 means DefaultLimit
	IncludeHidden   bool
	IncludeIgnored  bool
}

// DefaultLimit is how many results a search returns unless told otherwise.
const DefaultLimit = 100

// maxLineBytes is how much of a long line a result shows, centred on the match.
const maxLineBytes = 300

// maxFileBytes skips files too large to be source (logs, dumps); ripgrep searches them, an agent rarely wants to.
const maxFileBytes = 64 << 20

// Match is one matching line.
type Match struct {
	Path   string   `json:"path"`
	Line   int      `json:"line"`
	Column int      `json:"column"` // 1-based byte column of the first match in the line
	Text   string   `json:"text"`
	Before []string `json:"before,omitempty"`
	After  []string `json:"after,omitempty"`
}

// FileCount is a file with its number of matching lines.
type FileCount struct {
	Path  string `json:"path"`
	Count int    `json:"count"`
}

// Result is what a search found. Total counts every matching line searched (all of them unless Truncated);
// Files lists files with matches for the files and count outputs.
type Result struct {
	Matches       []Match     `json:"matches,omitempty"`
	Files         []FileCount `json:"files,omitempty"`
	Total         int         `json:"total"`
	FilesSearched int         `json:"files_searched"`
	Limit         int         `json:"limit"`
	Truncated     bool        `json:"truncated"`
}

// matcher finds matches in a file's bytes.
type matcher struct {
	literal []byte
	re      *regexp.Regexp
}

func newMatcher(opt Options) (*matcher, error) {
	if !opt.Regex && !opt.CaseInsensitive {
		return &matcher{literal: []byte(opt.Query)}, nil
	}
	expr := opt.Query
	if !opt.Regex {
		expr = regexp.QuoteMeta(expr)
	}
	if opt.CaseInsensitive {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile("(?m)" + expr)
	if err != nil {
		return nil, err
	}
	return &matcher{re: re}, nil
}

// next returns the first match at or after off, as [start, end), or -1.
func (m *matcher) next(b []byte, off int) (int, int) {
	if m.literal != nil {
		i := bytes.Index(b[off:], m.literal)
		if i < 0 {
			return -1, -1
		}
		return off + i, off + i + len(m.literal)
	}
	loc := m.re.FindIndex(b[off:])
	if loc == nil {
		return -1, -1
	}
	return off + loc[0], off + loc[1]
}

// fileResult is what one file contributed.
type fileResult struct {
	matches []Match
	count   int
	skipped bool
}

// Search runs opt over the files under the root-relative slash directory dir.
func Search(ctx context.Context, src Source, dir string, opt Options) (Result, error) {
	m, err := newMatcher(opt)
	if err != nil {
		return Result{}, err
	}
	limit := opt.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	if opt.Output == "" {
		opt.Output = OutputContent
	}
	files, done, err := src.Files(ctx, dir, WalkOptions{IncludeHidden: opt.IncludeHidden, IncludeIgnored: opt.IncludeIgnored, Match: opt.Glob.Match})
	defer done()
	if err != nil {
		return Result{}, err
	}
	res := Result{Limit: limit}
	// Files are searched in parallel in chunks and consumed in path order, so results are deterministic and a
	// search that fills its limit stops early.
	workers := runtime.GOMAXPROCS(0)
	chunk := 64 * workers
	out := make([]fileResult, len(files))
	for lo := 0; lo < len(files); lo += chunk {
		if err := ctx.Err(); err != nil {
			return Result{}, err
		}
		hi := min(lo+chunk, len(files))
		var wg sync.WaitGroup
		next := make(chan int)
		for range workers {
			wg.Go(func() {
				for i := range next {
					if ctx.Err() != nil {
						continue
					}
					out[i] = searchFile(src, files[i], m, opt)
				}
			})
		}
		for i := lo; i < hi; i++ {
			next <- i
		}
		close(next)
		wg.Wait()
		if err := ctx.Err(); err != nil {
			return Result{}, err
		}
		for i := lo; i < hi; i++ {
			fr := out[i]
			out[i] = fileResult{} // release the chunk's memory as it is consumed
			if fr.skipped {
				continue
			}
			res.FilesSearched++
			if fr.count == 0 {
				continue
			}
			res.Total += fr.count
			switch opt.Output {
			case OutputContent:
				room := limit - len(res.Matches)
				if len(fr.matches) > room {
					res.Matches = append(res.Matches, fr.matches[:room]...)
					res.Truncated = true
					return res, nil
				}
				res.Matches = append(res.Matches, fr.matches...)
			default:
				if len(res.Files) == limit {
					res.Truncated = true
					if opt.Output == OutputFiles {
						return res, nil
					}
					continue // count keeps totalling
				}
				res.Files = append(res.Files, FileCount{Path: files[i].rel, Count: fr.count})
			}
		}
	}
	return res, nil
}

// sniffLen is how much of a file decides whether it is binary, as git does.
const sniffLen = 8000

func searchFile(src Source, f file, m *matcher, opt Options) fileResult {
	if f.info.Size() > maxFileBytes {
		return fileResult{skipped: true}
	}
	b, err := src.Content(f)
	if err != nil || bytes.IndexByte(b[:min(len(b), sniffLen)], 0) >= 0 {
		return fileResult{skipped: true}
	}
	var fr fileResult
	line, lineStart, scanned := 1, 0, 0
	for off := 0; off <= len(b); {
		s, e := m.next(b, off)
		if s < 0 {
			break
		}
		line += bytes.Count(b[scanned:s], []byte{'\n'})
		scanned = s
		if i := bytes.LastIndexByte(b[:s], '\n'); i >= 0 {
			lineStart = i + 1
		} else {
			lineStart = 0
		}
		lineEnd := len(b)
		if i := bytes.IndexByte(b[s:], '\n'); i >= 0 {
			lineEnd = s + i
		}
		fr.count++
		if opt.Output == OutputContent {
			mt := Match{Path: f.rel, Line: line, Column: s - lineStart + 1, Text: clip(b[lineStart:lineEnd], s-lineStart, max(e-s, 1))}
			if opt.Context > 0 {
				mt.Before, mt.After = contextLines(b, lineStart, lineEnd, opt.Context)
			}
			fr.matches = append(fr.matches, mt)
		}
		// One result per line: continue after this line.
		off = lineEnd + 1
		if e > lineEnd { // a regex match spanning lines: skip past it
			off = e
		}
	}
	return fr
}

// clip shortens a long line to about maxLineBytes around the match, marking what was cut.
func clip(line []byte, at, n int) string {
	line = bytes.TrimRight(line, "\r")
	if len(line) <= maxLineBytes {
		return string(line)
	}
	start := max(0, at-(maxLineBytes-n)/2)
	end := min(len(line), start+maxLineBytes)
	start = max(0, end-maxLineBytes)
	for start > 0 && !utf8.RuneStart(line[start]) {
		start++
	}
	for end < len(line) && !utf8.RuneStart(line[end]) {
		end--
	}
	s := string(line[start:end])
	if start > 0 {
		s = "…" + s
	}
	if end < len(line) {
		s += "…"
	}
	return s
}

// contextLines returns up to n lines before lineStart and after lineEnd (the index of the match line's '\n', or
// len(b)).
func contextLines(b []byte, lineStart, lineEnd, n int) (before, after []string) {
	for p := lineStart; len(before) < n && p > 0; {
		end := p - 1 // the '\n' that ends the previous line
		q := bytes.LastIndexByte(b[:end], '\n') + 1
		before = append(before, clip(b[q:end], 0, 1))
		p = q
	}
	slices.Reverse(before)
	for p := lineEnd; len(after) < n && p < len(b)-1; {
		start := p + 1
		end := len(b)
		if i := bytes.IndexByte(b[start:], '\n'); i >= 0 {
			end = start + i
		}
		after = append(after, clip(b[start:end], 0, 1))
		p = end
	}
	return before, after
}

// readAll reads a file of known size in one allocation.
func readAll(f file) ([]byte, error) {
	h, err := f.dir.Open(f.name)
	if err != nil {
		return nil, err
	}
	defer h.Close()
	b := make([]byte, 0, f.info.Size()+1)
	for {
		n, err := h.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return nil, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // grew since the stat
		}
	}
}

// IsBadPattern reports whether err is a regular expression the search could not compile.
func IsBadPattern(err error) bool {
	var se *syntax.Error
	return errors.As(err, &se)
}
