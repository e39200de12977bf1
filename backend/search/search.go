package search

import (
	"bytes"
	"context"
	"errors"
	"regexp"
	"regexp/syntax"
	"runtime"
	"slices"
	"sync"
	"unicode/utf8"

	"github.com/rooted-dev/rooted/backend/sched"
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
	// File, when set, is the only file searched (a slash path from the root, inside the searched directory).
	File           string
	Context        int // lines before and after each match (content output)
	Output         string
	Limit          int // matches (content), files (files, count); 0 means DefaultLimit
	IncludeHidden  bool
	IncludeIgnored bool
	// Lane is the workspace's share of the process's scheduler: its background work (the first snapshot and the
	// gits it runs) yields to this search. Nil: a lane of its own, so nothing else yields to it but the
	// process-wide index work (see Yielder).
	Lane *sched.Lane
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
	literal *literalFinder
	re      *regexp.Regexp
	// pre, for a regexp, finds a literal every match contains; lines (or, when a match can span lines, files)
	// without it are not given to the regexp.
	pre       *literalFinder
	multiline bool
}

func newMatcher(opt Options) (*matcher, error) {
	if !opt.Regex && !opt.CaseInsensitive {
		return &matcher{literal: newLiteralFinder([]byte(opt.Query))}, nil
	}
	expr := opt.Query
	if opt.Regex {
		// Compile the pattern as given first, so an error quotes the user's text and not the flags added below.
		if _, err := regexp.Compile(expr); err != nil {
			return nil, err
		}
	} else {
		expr = regexp.QuoteMeta(expr)
	}
	if opt.CaseInsensitive {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile("(?m)" + expr)
	if err != nil {
		return nil, err
	}
	m := &matcher{re: re}
	if opt.Regex && !opt.CaseInsensitive {
		if lit, multiline, ok := requiredLiteral(opt.Query); ok {
			m.pre, m.multiline = newLiteralFinder(lit), multiline
		}
	}
	return m, nil
}

// next returns the first match at or after off, as [start, end), or -1.
func (m *matcher) next(b []byte, off int) (int, int) {
	if m.literal != nil {
		i := m.literal.index(b[off:])
		if i < 0 {
			return -1, -1
		}
		return off + i, off + i + len(m.literal.needle)
	}
	if m.pre != nil && !m.multiline {
		// Try the regexp only on lines holding the literal.
		for off < len(b) {
			i := m.pre.index(b[off:])
			if i < 0 {
				return -1, -1
			}
			at := off + i
			start := bytes.LastIndexByte(b[:at], '\n') + 1
			end := len(b)
			if j := bytes.IndexByte(b[at:], '\n'); j >= 0 {
				end = at + j
			}
			lo := max(start, off)
			if loc := m.re.FindIndex(b[lo:end]); loc != nil {
				return lo + loc[0], lo + loc[1]
			}
			off = end + 1
		}
		return -1, -1
	}
	if m.pre != nil && off == 0 && m.pre.index(b) < 0 {
		return -1, -1 // the file lacks the literal: no match can be in it
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
//
// The walk, the searching and the collecting run at once: the walker streams files in path order, workers search
// them in parallel, and results are consumed in the walk's order, so they are deterministic; once the limit is
// met the search stops.
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
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// Background work on the same files waits: the workspace's (its lane), and the index's (the process).
	defer opt.Lane.Search()()
	defer process.Search()()

	workers := runtime.GOMAXPROCS(0)
	p := &pipeline{ctx: ctx, src: src, dir: dir, opt: opt, batchSize: 4, jobs: make(chan batch, 2*workers)}
	go p.walk()
	results := make(chan done, 2*workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() { p.search(m, results) })
	}
	go func() { wg.Wait(); close(results) }()

	res, full := collect(results, opt.Output, limit, cancel)
	if full {
		return res, nil
	}
	res.FilesSearched += p.ruledOut
	if p.walkErr != nil {
		return Result{}, p.walkErr
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	return res, nil
}

// batch is files on their way from the walk to a worker: they travel in batches, since a channel hand-off per
// file costs more than searching a small file. Batches start small so the first results come at once, and grow.
type batch struct {
	seq   int
	files []File
}

// done is a batch searched.
type done struct {
	seq     int
	files   []File
	results []fileResult
}

// pipeline is one search's walk, feeding its workers.
type pipeline struct {
	ctx       context.Context
	src       Source
	dir       string
	opt       Options
	jobs      chan batch
	batchSize int
	seq       int
	cur       []File
	slot      func() // releases the lane's slot the walk holds while it fills a batch; nil when none

	// Written by the walk, read once jobs is closed and every worker has ended.
	walkErr  error
	ruledOut int // files ruled out by the trigram index since the last one sent; after the walk, those at its end
}

// walk streams the files to search to the workers, in path order, and closes jobs.
func (p *pipeline) walk() {
	defer close(p.jobs)
	p.cur = make([]File, 0, p.batchSize)
	defer p.flush()
	// Before the index's narrowing too (a union of posting lists for a regexp, a search's largest step before it
	// reads a file).
	p.opt.Lane.Pace(p.ctx)
	if cw, ok := p.src.(CandidateWalker); ok && p.opt.File == "" && p.opt.Glob.Empty() {
		rest, handled, err := cw.WalkCandidates(p.ctx, p.dir, p.opt, func(f File, n int) bool {
			f.ruledOutBefore = n
			return p.add(f)
		})
		if handled {
			p.ruledOut, p.walkErr = rest, err
			return
		}
	}
	wo, keep := p.walkOptions()
	p.walkErr = p.src.Walk(p.ctx, p.dir, wo, func(f File) bool {
		if keep != nil {
			if f.verdict = keep(f); f.verdict == CannotMatch {
				// Counted as searched where it falls in the walk's order, without going through the pipeline:
				// on a big project nearly every file is one of these.
				p.ruledOut++
				f.Release()
				return true
			}
			f.ruledOutBefore, p.ruledOut = p.ruledOut, 0
		}
		return p.add(f)
	})
}

// walkOptions says what the walk lists, and keep, when not nil, which files may match (the index's narrowing).
func (p *pipeline) walkOptions() (WalkOptions, func(File) Verdict) {
	opt := p.opt
	if opt.File != "" {
		// A file named explicitly is searched even if hidden or ignored, as rg does; only its own folder is
		// listed (dir is that folder).
		return WalkOptions{IncludeHidden: true, IncludeIgnored: true, Shallow: true, Match: func(p string) bool { return p == opt.File }}, nil
	}
	wo := WalkOptions{IncludeHidden: opt.IncludeHidden, IncludeIgnored: opt.IncludeIgnored, Match: opt.Glob.Match, Pacer: paceOf(opt.Lane)}
	var keep func(File) Verdict
	if nw, ok := p.src.(Narrower); ok {
		// The files that cannot match are not read at all; they still count as searched, so a result is the
		// same whether or not the index was ready.
		keep = nw.Narrow(p.ctx, opt)
		wo.ReadAll = keep == nil
	}
	return wo, keep
}

// add puts f in the current batch, sending it when full; false means the search has ended.
func (p *pipeline) add(f File) bool {
	// Another workspace's edit goes first: the walk pauses while it runs (sched.Lane.Pace).
	p.opt.Lane.Pace(p.ctx)
	if p.slot == nil {
		// The walk takes a CPU of the lane's share too, while it fills a batch (not while it waits to hand it on:
		// the workers may need the slot to take it).
		p.slot = p.opt.Lane.Slot()
	}
	p.cur = append(p.cur, f)
	return len(p.cur) < p.batchSize || p.send()
}

// letGo releases the walk's slot, if it holds one.
func (p *pipeline) letGo() {
	if p.slot != nil {
		p.slot()
		p.slot = nil
	}
}

// send hands the current batch to the workers; false means the search ended first.
func (p *pipeline) send() bool {
	p.letGo()
	select {
	case p.jobs <- batch{p.seq, p.cur}:
		p.seq++
		p.batchSize = min(2*p.batchSize, 64)
		p.cur = make([]File, 0, p.batchSize)
		return true
	case <-p.ctx.Done():
		return false
	}
}

// flush sends what is left of the last batch, or releases it if the search has ended.
func (p *pipeline) flush() {
	defer p.letGo()
	if len(p.cur) > 0 && !p.send() {
		for _, f := range p.cur {
			f.Release()
		}
	}
}

// search is one worker: it searches the batches, in any order, until the walk ends, each with a slot of the lane.
func (p *pipeline) search(m *matcher, results chan<- done) {
	for b := range p.jobs {
		out := make([]fileResult, len(b.files))
		// A CPU of the lane's share: beside another workspace's work, a search uses no more than its share.
		release := p.opt.Lane.Slot()
		for i, f := range b.files {
			p.opt.Lane.Pace(p.ctx) // between files, as the walk: another workspace's edit goes first
			if p.ctx.Err() == nil {
				out[i] = searchFile(p.src, f, m, p.opt)
			} else {
				out[i].skipped = true
			}
			f.Release()
		}
		release()
		select {
		case results <- done{b.seq, b.files, out}:
		case <-p.ctx.Done():
		}
	}
}

// collect consumes the searched batches in the walk's order until the limit is met (full; cancel then stops the
// rest) or results closes.
func collect(results <-chan done, output string, limit int, cancel func()) (res Result, full bool) {
	res = Result{Limit: limit}
	pending := map[int]done{}
	next := 0
	for d := range results {
		if full {
			continue // let the pipeline drain
		}
		pending[d.seq] = d
		for !full {
			d, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			for i, fr := range d.results {
				res.FilesSearched += d.files[i].ruledOutBefore
				if res.add(d.files[i].Rel, fr, output, limit) {
					full = true
					cancel()
					break
				}
			}
		}
	}
	return res, full
}

// add records one file's result and reports whether the search can stop.
func (res *Result) add(rel string, fr fileResult, output string, limit int) bool {
	if fr.skipped {
		return false
	}
	res.FilesSearched++
	if fr.count == 0 {
		return false
	}
	res.Total += fr.count
	if output == OutputContent {
		room := limit - len(res.Matches)
		if len(fr.matches) > room {
			res.Matches = append(res.Matches, fr.matches[:room]...)
			res.Truncated = true
			return true
		}
		res.Matches = append(res.Matches, fr.matches...)
		return false
	}
	if len(res.Files) == limit {
		res.Truncated = true
		return output == OutputFiles // count keeps totalling
	}
	res.Files = append(res.Files, FileCount{Path: rel, Count: fr.count})
	return false
}

// sniffLen is how much of a file decides whether it is binary, as git does.
const sniffLen = 8000

func searchFile(src Source, f File, m *matcher, opt Options) (fr fileResult) {
	switch f.verdict {
	case CannotMatch:
		return fileResult{}
	case BinaryFile:
		return fileResult{skipped: true}
	}
	b, release, err := src.Content(f)
	defer release()
	if err != nil || bytes.IndexByte(b[:min(len(b), sniffLen)], 0) >= 0 {
		return fileResult{skipped: true}
	}
	line, scanned := 1, 0 // line numbers, only counted for content: counts and file lists never show them
	for off := 0; off <= len(b); {
		s, e := m.next(b, off)
		if s < 0 {
			break
		}
		lineEnd := len(b)
		if i := bytes.IndexByte(b[s:], '\n'); i >= 0 {
			lineEnd = s + i
		}
		fr.count++
		if opt.Output == OutputContent {
			line += bytes.Count(b[scanned:s], []byte{'\n'})
			scanned = s
			lineStart := bytes.LastIndexByte(b[:s], '\n') + 1
			mt := Match{Path: f.Rel, Line: line, Column: s - lineStart + 1, Text: clip(b[lineStart:lineEnd], s-lineStart, max(e-s, 1))}
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

// IsBadPattern reports whether err is a regular expression the search could not compile.
func IsBadPattern(err error) bool {
	var se *syntax.Error
	return errors.As(err, &se)
}
