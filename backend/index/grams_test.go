package index

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/search"
)

// A filter never rules out a file that holds the literal: every four-byte string of a match is in the file.
func FuzzGramFilterNeverRulesOutAMatch(f *testing.F) {
	f.Add([]byte("needle. flewort work. "), []byte("needlework"), 3)
	f.Add([]byte(strings.Repeat("abcdefgh", 100)), []byte("cdefghab"), 40)
	f.Add([]byte("x"), []byte("xxxx"), 0)
	f.Fuzz(func(t *testing.T, data, lit []byte, at int) {
		// The literal put into the text at a place of the fuzzer's choosing, so most inputs hold it.
		at = min(max(at, 0), len(data))
		text := slices.Concat(data[:at], lit, data[at:])
		if !newGramFilter(text).mayHold(lit) {
			t.Fatalf("the filter of %q rules out %q, which it holds", text, lit)
		}
		if bytes.Contains(data, lit) && !newGramFilter(data).mayHold(lit) {
			t.Fatalf("the filter of %q rules out %q, which it holds", data, lit)
		}
	})
}

// A large file that narrowed searches keep reading gets a filter of its four-byte strings, and a literal it
// cannot hold is ruled out without reading it: it is not a candidate. A change drops the filter, and the next
// search finds what the change wrote; a search the filter cannot speak for (case-insensitive) still reads it.
func TestLargeFilesSearchesKeepReadingAreRuledOutByTheirFilter(t *testing.T) {
	t.Parallel()
	// Every trigram of "needlework" but not its four-byte "dlew": the trigram index names it a candidate.
	big := strings.Repeat("needle. flewort work. ", gramMin/20)
	files := map[string]string{"big.txt": big, "small.txt": "some needlework\n"}
	for i := range 100 {
		files[filepath.Join("filler", string(rune('a'+i%26))+strings.Repeat("x", i/26+1)+".txt")] = strings.Repeat("filler text ", 10)
	}
	r, dir := fixture(t, files)
	x, err := NewIndex(r, dir, Options{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	x.SetBudget(int64(len(big)) / fillLimit / 2) // the build leaves the text cache alone
	waitNarrowed(t, x)
	waitMerged(t, x)     // searches fill the cache only once no build or merge runs
	x.SetBudget(4 << 20) // room for the filter (a share of the budget) from here on
	candidates := func(opt search.Options) []string {
		t.Helper()
		var got []string
		_, ok, err := x.WalkCandidates(context.Background(), "", opt, func(f search.File, _ int) bool {
			got = append(got, f.Rel)
			return true
		})
		if !ok || err != nil {
			t.Fatalf("no candidate walk: %v %v", ok, err)
		}
		return got
	}
	count := func(query string, insensitive bool) int {
		t.Helper()
		return matches(t, x, search.Options{Query: query, CaseInsensitive: insensitive})
	}
	lit := search.Options{Query: "needlework"}
	if got := candidates(lit); !slices.Equal(got, []string{"big.txt", "small.txt"}) {
		t.Fatalf("candidates before any search %v, want big.txt and small.txt", got)
	}
	for range 2 {
		if n := count("needlework", false); n != 1 {
			t.Fatalf("needlework counted %d times, want 1", n)
		}
	}
	if got := candidates(lit); !slices.Equal(got, []string{"small.txt"}) {
		t.Fatalf("candidates once big.txt has a filter: %v, want small.txt alone", got)
	}
	if n := count("needlework", false); n != 1 {
		t.Fatalf("needlework counted %d times with big.txt ruled out, want 1", n)
	}
	if got := candidates(search.Options{Query: "flewort"}); !slices.Contains(got, "big.txt") {
		t.Errorf("a literal big.txt holds: candidates %v", got)
	}
	// Its text is kept only once a search reads it past its filter: the needlework searches read it twice and
	// kept the filter alone.
	cached := func() int64 { return cachedBytes(x) }
	if c := cached(); c >= int64(len(big)) {
		t.Errorf("%d bytes cached after searches big.txt does not match; want its filter alone", c)
	}
	for range 2 {
		count("flewort", false)
	}
	if c := cached(); c < int64(len(big)) {
		t.Errorf("%d bytes cached after searches big.txt matches; want its %d bytes of text", c, len(big))
	}
	if got := candidates(search.Options{Query: "NEEDLEWORK", CaseInsensitive: true}); !slices.Contains(got, "big.txt") {
		t.Errorf("a case-insensitive search: candidates %v, want big.txt too", got)
	}
	if err := os.WriteFile(filepath.Join(dir, "big.txt"), []byte(big+"needlework\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	x.Invalidate("big.txt", false)
	if n := count("needlework", false); n != 2 {
		t.Errorf("after big.txt gained needlework: counted %d times, want 2", n)
	}
}
