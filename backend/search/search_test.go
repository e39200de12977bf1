package search

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/testtree"
)

// The files searched are exactly those git considers part of the project (tracked or untracked, not ignored),
// less hidden ones unless asked for.
func TestFilesMatchGit(t *testing.T) {
	t.Parallel()
	r, dir := testtree.Root(t, testtree.IgnoreProject())
	testtree.Git(t, dir, "init", "-q")
	want := strings.Fields(testtree.Git(t, dir, "ls-files", "-co", "--exclude-standard"))
	walked := func(opt WalkOptions) []string {
		var got []string
		err := walkFiles(context.Background(), r, ".", opt, func(f File) bool {
			got = append(got, f.Rel)
			f.Release()
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	got := walked(WalkOptions{IncludeHidden: true})
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("walked %v\ngit ls-files %v", got, want)
	}
	// Without hidden files, no path has a component starting with ".".
	for _, rel := range walked(WalkOptions{}) {
		if strings.HasPrefix(rel, ".") || strings.Contains(rel, "/.") {
			t.Errorf("hidden file walked: %s", rel)
		}
	}
}

func TestSearch(t *testing.T) {
	t.Parallel()
	r, _ := testtree.Root(t, testtree.IgnoreProject())
	src := DiskSource{Root: r}
	paths := func(res Result) []string {
		var out []string
		for _, m := range res.Matches {
			out = append(out, m.Path)
		}
		for _, f := range res.Files {
			out = append(out, f.Path)
		}
		return out
	}
	run := func(opt Options, dir string) Result {
		t.Helper()
		res, err := Search(context.Background(), src, dir, opt)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := run(Options{Query: "needle"}, ".")
	want := []string{"cmd/build/tool.go", "keep.log", "main.go", "src/app.ts", "src/deep/trace.log", "src/important.tmp"}
	if !slices.Equal(paths(res), want) || res.Total != 6 || res.Truncated {
		t.Errorf("default search: %v (total %d)", paths(res), res.Total)
	}
	if m := res.Matches[2]; m.Line != 2 || m.Column != 4 || m.Text != "// needle in main" {
		t.Errorf("match detail: %+v", m)
	}
	if got := paths(run(Options{Query: "needle", IncludeIgnored: true, IncludeHidden: true}, ".")); len(got) != 14 {
		t.Errorf("with ignored and hidden: %d files %v (bin.dat is binary and never searched)", len(got), got)
	}
	if got := paths(run(Options{Query: "needle", Glob: mustGlob(t, "*.ts")}, ".")); !slices.Equal(got, []string{"src/app.ts"}) {
		t.Errorf("glob *.ts: %v", got)
	}
	if got := paths(run(Options{Query: "needle", Glob: mustGlob(t, "src/**", "!**/*.tmp")}, ".")); !slices.Equal(got, []string{"src/app.ts", "src/deep/trace.log"}) {
		t.Errorf("glob src/** !*.tmp: %v", got)
	}
	if got := paths(run(Options{Query: "needle"}, "src")); len(got) != 3 {
		t.Errorf("under src: %v", got)
	}
	if got := paths(run(Options{Query: "NEEDLE", CaseInsensitive: true, Output: OutputFiles}, ".")); len(got) != 6 {
		t.Errorf("case-insensitive files: %v", got)
	}
	if got := paths(run(Options{Query: `needle (kept|re-\w+)`, Regex: true}, ".")); !slices.Equal(got, []string{"keep.log", "src/deep/trace.log"}) {
		t.Errorf("regex: %v", got)
	}
	res = run(Options{Query: "needle", Limit: 2}, ".")
	if len(res.Matches) != 2 || !res.Truncated || res.Limit != 2 {
		t.Errorf("limit 2: %+v", res)
	}
	res = run(Options{Query: "needle", Output: OutputCount, Limit: 1}, ".")
	if len(res.Files) != 1 || res.Total != 6 || !res.Truncated {
		t.Errorf("count keeps totalling past the limit: %+v", res)
	}
	if _, err := Search(context.Background(), src, ".", Options{Query: "(", Regex: true}); !IsBadPattern(err) {
		t.Errorf("bad regex: %v", err)
	}
}

func TestLinesContextAndClipping(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("a", 1000) + "TARGET" + strings.Repeat("b", 1000)
	r, _ := testtree.Root(t, map[string]string{
		"f.txt":    "one\ntwo\nthree TARGET\nfour\nfive\n",
		"crlf.txt": "x\r\nTARGET here\r\ny\r\n",
		"long.txt": long + "\n",
		"two.txt":  "TARGET TARGET\nTARGET\n",
		"end.txt":  "TARGET",
	})
	res, err := Search(context.Background(), DiskSource{Root: r}, ".", Options{Query: "TARGET", Context: 2})
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string][]Match{}
	for _, m := range res.Matches {
		byPath[m.Path] = append(byPath[m.Path], m)
	}
	if m := byPath["f.txt"][0]; m.Line != 3 || !slices.Equal(m.Before, []string{"one", "two"}) || !slices.Equal(m.After, []string{"four", "five"}) {
		t.Errorf("context: %+v", m)
	}
	if m := byPath["crlf.txt"][0]; m.Text != "TARGET here" || !slices.Equal(m.Before, []string{"x"}) || !slices.Equal(m.After, []string{"y"}) {
		t.Errorf("CRLF: %+v", m)
	}
	if m := byPath["long.txt"][0]; len(m.Text) > maxLineBytes+10 || !strings.Contains(m.Text, "TARGET") || !strings.HasPrefix(m.Text, "…") || !strings.HasSuffix(m.Text, "…") || m.Column != 1001 {
		t.Errorf("long line: column %d, %d bytes: %.40q", m.Column, len(m.Text), m.Text)
	}
	if ms := byPath["two.txt"]; len(ms) != 2 || ms[0].Line != 1 || ms[1].Line != 2 {
		t.Errorf("one result per line: %+v", ms)
	}
	if ms := byPath["end.txt"]; len(ms) != 1 || ms[0].Text != "TARGET" || ms[0].After != nil {
		t.Errorf("match on a last line without newline: %+v", ms)
	}
}

func TestCancel(t *testing.T) { // not parallel: it bounds how long a cancelled search takes
	files := map[string]string{}
	for i := range 3000 {
		files[filepath.Join("d", string(rune('a'+i%26)), "f"+strings.Repeat("x", i%7)+time.Duration(i).String()+".txt")] = strings.Repeat("line of text\n", 200)
	}
	r, _ := testtree.Root(t, files)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start := time.Now()
	if _, err := Search(ctx, DiskSource{Root: r}, ".", Options{Query: "nothing matches this"}); err == nil {
		t.Error("a cancelled search returned no error")
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("a cancelled search took %v", d) // a generous bound: the benchmark reports the real latency
	}
}

func TestGlob(t *testing.T) {
	t.Parallel()
	tests := []struct {
		patterns []string
		path     string
		want     bool
	}{
		{[]string{"*.go"}, "a/b/c.go", true},
		{[]string{"*.go"}, "a/b/c.gox", false},
		{[]string{"src/**"}, "src/a/b.ts", true},
		{[]string{"src/**"}, "lib/src/a.ts", false},
		{[]string{"src/"}, "src/a.ts", true},
		{[]string{"**/test/*.js"}, "test/a.js", true},
		{[]string{"**/test/*.js"}, "x/test/a.js", true},
		{[]string{"**/test/*.js"}, "x/test/y/a.js", false},
		{[]string{"*.{ts,tsx}"}, "a/b.tsx", true},
		{[]string{"file?.txt"}, "file1.txt", true},
		{[]string{"[ab].go"}, "b.go", true},
		{[]string{"[!ab].go"}, "b.go", false},
		{[]string{"*.go", "!*_test.go"}, "a_test.go", false},
		{[]string{"!vendor/**"}, "main.go", true},
		{[]string{"!vendor/**"}, "vendor/x.go", false},
	}
	for _, tt := range tests {
		g := mustGlob(t, tt.patterns...)
		if got := g.Match(tt.path); got != tt.want {
			t.Errorf("%v on %s = %v", tt.patterns, tt.path, got)
		}
	}
	if _, err := CompileGlobs([]string{"a[b"}); err == nil {
		t.Error("an unclosed class compiled")
	}
}

func mustGlob(t *testing.T, patterns ...string) *Glob {
	t.Helper()
	g, err := CompileGlobs(patterns)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestLiteralFinder(t *testing.T) {
	t.Parallel()
	hay := []byte("fun funk func fu\nnc zfunc")
	for _, needle := range []string{"func", "f", "zf", "nc z", "c", "nope", "fu\nnc", "unc zfunc"} {
		f := newLiteralFinder([]byte(needle))
		if got, want := f.index(hay), strings.Index(string(hay), needle); got != want {
			t.Errorf("index(%q) = %d, want %d", needle, got, want)
		}
	}
	if got := newLiteralFinder([]byte("abc")).index([]byte("ab")); got != -1 {
		t.Errorf("needle longer than the rest: %d", got)
	}
}

func FuzzLiteralFinder(f *testing.F) {
	f.Add("hello world func", "func")
	f.Add("aaaa", "aa")
	f.Add("xyz", "")
	f.Fuzz(func(t *testing.T, hay, needle string) {
		if got, want := newLiteralFinder([]byte(needle)).index([]byte(hay)), strings.Index(hay, needle); got != want {
			t.Fatalf("index(%q in %q) = %d, want %d", needle, hay, got, want)
		}
	})
}

func TestRequiredLiteral(t *testing.T) {
	t.Parallel()
	tests := []struct {
		expr      string
		lit       string
		multiline bool
		ok        bool
	}{
		{`func \(\w+ \*\w+\) Close`, ") Close", false, true}, // the longest literal, after simplification
		{`TODO|FIXME`, "", false, false},
		{`(?i)hello`, "", false, false},
		{`foo.*bar`, "bar", false, true}, // as long as "foo", with a rarer byte
		{`foo\s+bar`, "bar", true, true},
		{`(?s)foo.bar`, "bar", true, true},
		{`(ab)+`, "", false, false},
		{`x`, "", false, false},
	}
	for _, tt := range tests {
		lit, multiline, ok := requiredLiteral(tt.expr)
		if ok != tt.ok || (ok && (string(lit) != tt.lit || multiline != tt.multiline)) {
			t.Errorf("%s: %q %v %v, want %q %v %v", tt.expr, lit, multiline, ok, tt.lit, tt.multiline, tt.ok)
		}
	}
}

// A regexp with a literal prefilter finds exactly what the plain regexp finds.
func TestPrefilterAgrees(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"a.go": "func (s *Server) Close() error {\n\treturn nil\n}\nfunc (c *Conn) Close()\n// Close here\n",
		"b.go": "nothing\nfoo\n  bar foo x bar\nfoo\nbar\n",
		"c.go": "x Close func (a *b) Closer\n",
	}
	r, _ := testtree.Root(t, files)
	for _, expr := range []string{`func \(\w+ \*\w+\) Close`, `foo.*bar`, `foo\s+bar`, `\bClose\b`, `(?m)^foo$`} {
		plain, err := regexp.Compile("(?m)" + expr)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Search(context.Background(), DiskSource{Root: r}, ".", Options{Query: expr, Regex: true})
		if err != nil {
			t.Fatal(err)
		}
		want := 0
		for _, c := range files {
			b := []byte(c)
			for off := 0; off <= len(b); {
				loc := plain.FindIndex(b[off:])
				if loc == nil {
					break
				}
				want++
				end := off + loc[1]
				nl := strings.IndexByte(c[off+loc[0]:], '\n')
				next := len(b) + 1
				if nl >= 0 {
					next = off + loc[0] + nl + 1
				}
				off = max(next, end)
			}
		}
		if res.Total != want {
			t.Errorf("%s: %d matching lines, the plain regexp finds %d", expr, res.Total, want)
		}
	}
}

// Searching one file lists only its own folder (package index checks the same through its lists).
func TestSearchOneFileIsShallow(t *testing.T) {
	t.Parallel()
	r, _ := testtree.Root(t, map[string]string{"a.go": "needle\n", "b.go": "needle\n", "sub/a.go": "needle\n", ".hidden": "needle\n"})
	var listed []string
	if err := walkFiles(context.Background(), r, ".", WalkOptions{Shallow: true, IncludeHidden: true}, func(f File) bool {
		listed = append(listed, f.Rel)
		f.Release()
		return true
	}); err != nil {
		t.Fatal(err)
	}
	if strings.Join(listed, ",") != ".hidden,a.go,b.go" {
		t.Errorf("shallow walk listed %v", listed)
	}
	for range 2 {
		res, err := Search(context.Background(), DiskSource{Root: r}, "", Options{Query: "needle", File: "a.go"})
		if err != nil || len(res.Matches) != 1 || res.Matches[0].Path != "a.go" {
			t.Errorf("%+v, %v", res.Matches, err)
		}
	}
}

// truncatingSource cuts a file to nothing right after the search got its content, as a build or an editor
// rewriting it at that moment would.
type truncatingSource struct {
	DiskSource
	dir, victim string
}

func (s *truncatingSource) Content(f File) ([]byte, func(), error) {
	b, release, err := s.DiskSource.Content(f)
	if f.Rel == s.victim && err == nil {
		if err := os.Truncate(filepath.Join(s.dir, s.victim), 0); err != nil {
			panic(err)
		}
	}
	return b, release, err
}

// A large file is read into a buffer of the search's, never mapped: cut short right after it was read, it is
// searched as it was read (a mapping's lost pages would fault), and the rest of the tree is found.
func TestLargeFileCutShortWhileSearched(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("filler line without the word\n", 40_000) + "needle at the end\n" // ~1.1 MB
	r, dir := testtree.Root(t, map[string]string{"a.txt": "needle a\n", "big.txt": big, "z.txt": "needle z\n"})
	src := &truncatingSource{DiskSource: DiskSource{Root: r}, dir: dir, victim: "big.txt"}
	res, err := Search(context.Background(), src, ".", Options{Query: "needle", Output: OutputFiles})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range res.Files {
		got = append(got, f.Path)
	}
	if !slices.Equal(got, []string{"a.txt", "big.txt", "z.txt"}) {
		t.Errorf("files %v, want a.txt, big.txt as read, and z.txt (big.txt cut short under the search)", got)
	}
	// Untouched, the same large file is found.
	os.WriteFile(filepath.Join(dir, "big.txt"), []byte(big), 0o644)
	res, err = Search(context.Background(), DiskSource{Root: r}, ".", Options{Query: "needle at the end", Output: OutputContent})
	if err != nil || len(res.Matches) != 1 || res.Matches[0].Line != 40_001 {
		t.Errorf("large file: %+v, %v", res.Matches, err)
	}
}
