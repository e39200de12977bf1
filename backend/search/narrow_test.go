package search

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// waitNarrowed waits until the index's trigram index is built and in use.
func waitNarrowed(t *testing.T, x *Index) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		Search(context.Background(), x, "", Options{Query: "warm-up", Output: OutputCount})
		if _, _, st := x.Memory(); st.Ready && st.Changed == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the trigram index was not built")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Searches narrowed by the trigram index return exactly what a full scan of the disk returns: for literal,
// case-insensitive and regexp queries, in every output mode, before and right after files change (edited,
// created, deleted, folders renamed), and right after a command ran.
func TestNarrowedSearchesEqualFullScans(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	rng := rand.New(rand.NewPCG(3, 4))
	words := []string{"func", "Close", "error", "ErrShortWrite", "return", "nil", "if", "needle", "Needle", "x", "{", "}", "\n", "\n", " ", "日本"}
	text := func() string {
		var b strings.Builder
		for range 20 + rng.IntN(300) {
			b.WriteString(words[rng.IntN(len(words))])
			b.WriteByte(" \n"[rng.IntN(2)])
		}
		return b.String()
	}
	files := map[string]string{".gitignore": "ignored/\n", "ignored/x.go": "needle ignored\n", ".hidden/h.go": "needle hidden\n", "bin.dat": "needle\x00binary"}
	for i := range 300 {
		files[fmt.Sprintf("d%d/f%d.go", i%17, i)] = text()
	}
	r, dir := fixture(t, files)
	x, err := NewIndex(r, dir, Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	queries := []Options{
		{Query: "ErrShortWrite"},
		{Query: "needle", Output: OutputCount, Limit: 1000},
		{Query: "needle", CaseInsensitive: true, Output: OutputFiles, Limit: 1000},
		{Query: `Err\w+Write`, Regex: true, Limit: 1000},
		{Query: `func\s+Close`, Regex: true, Output: OutputCount, Limit: 1000},
		{Query: "日本", Limit: 1000},
		{Query: "x", Limit: 1000},
		{Query: "needle", IncludeHidden: true, IncludeIgnored: true, Limit: 1000},
		{Query: "Needle needle", Limit: 1000},
		{Query: `(?i)close\nerror`, Regex: true, Limit: 1000},
		{Query: "zzz-not-there"},
	}
	check := func(when string) {
		t.Helper()
		for _, q := range queries {
			got, err1 := Search(context.Background(), x, "", q)
			want, err2 := Search(context.Background(), DiskSource{Root: r}, "", q)
			if err1 != nil || err2 != nil || !reflect.DeepEqual(got, want) {
				t.Fatalf("%s, query %+v:\nnarrowed %+v (%v)\nfull scan %+v (%v)", when, q, got, err1, want, err2)
			}
		}
	}
	waitNarrowed(t, x)
	check("built")
	// The rare literal reads only the files that hold it.
	if n := reads(t, x, Options{Query: "zzz-not-there"}); n != 0 {
		t.Errorf("a literal in no file still read %d files", n)
	}
	for round := range 5 {
		for range 10 {
			p := fmt.Sprintf("d%d/f%d.go", rng.IntN(17), rng.IntN(300))
			switch rng.IntN(4) {
			case 0:
				os.Remove(filepath.Join(dir, p))
			case 1:
				os.WriteFile(filepath.Join(dir, fmt.Sprintf("new%d/n%d.go", round, rng.IntN(1000))), []byte(text()+" needle ErrShortWrite\n"), 0o644)
				os.MkdirAll(filepath.Join(dir, fmt.Sprintf("new%d", round)), 0o755)
				os.WriteFile(filepath.Join(dir, fmt.Sprintf("new%d/n%d.go", round, rng.IntN(1000))), []byte(text()+" needle ErrShortWrite\n"), 0o644)
			default:
				if _, err := os.Stat(filepath.Join(dir, p)); err == nil {
					os.WriteFile(filepath.Join(dir, p), []byte(text()+" ErrShortWrite needle\n"), 0o644)
				}
			}
		}
		if round == 2 {
			os.Rename(filepath.Join(dir, "d3"), filepath.Join(dir, "d3-renamed"))
		}
		time.Sleep(100 * time.Millisecond) // the watcher's reports arrive in milliseconds
		check(fmt.Sprintf("round %d", round))
		// Still narrowed: only the changed and new files are read for a literal no file holds.
		if n := reads(t, x, Options{Query: "zzz-not-there"}); n > 60 {
			t.Errorf("round %d: a literal in no file read %d files", round, n)
		}
	}
	// A command wrote a file and ended: right away, searches see it.
	os.WriteFile(filepath.Join(dir, "d1", "by-command.go"), []byte("ErrShortWrite from a command\n"), 0o644)
	x.CommandRan()
	check("right after a command")
	time.Sleep(pauseAfterCommand + 100*time.Millisecond)
	check("after a command, narrowed again")
	if n := reads(t, x, Options{Query: "zzz-not-there"}); n > 80 {
		t.Errorf("after a command: a literal in no file read %d files", n)
	}
}

// countingIndex counts the files a search reads.
type countingIndex struct {
	*Index
	n atomic.Int64
}

func (c *countingIndex) Content(f File) ([]byte, func(), error) {
	c.n.Add(1)
	return c.Index.Content(f)
}

// reads runs a search through x and returns how many files it read.
func reads(t *testing.T, x *Index, opt Options) int64 {
	t.Helper()
	c := &countingIndex{Index: x}
	if _, err := Search(context.Background(), c, "", opt); err != nil {
		t.Fatal(err)
	}
	return c.n.Load()
}

func init() { buildDelay = 0 } // the tests wait for builds; nothing here competes with them

// The trigram index is built in the background, after the searches the agent waits for: a build does not start
// while a search runs (up to maxYield), then finishes.
func TestBuildWaitsForSearches(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	files := map[string]string{}
	for i := range 200 {
		files[fmt.Sprintf("d%d/f%d.txt", i%7, i)] = fmt.Sprintf("line %d needle\n", i)
	}
	r, dir := fixture(t, files)
	x, err := NewIndex(r, dir, Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	done := x.searching() // a search in progress, as far as the build can tell
	if res, err := Search(context.Background(), x, "", Options{Query: "needle", Output: OutputCount}); err != nil || res.Total != 200 {
		t.Fatalf("first search: %+v %v", res, err)
	}
	time.Sleep(300 * time.Millisecond)
	if _, _, st := x.Memory(); st.Ready {
		t.Fatal("the trigram index was built while a search ran")
	}
	done()
	waitNarrowed(t, x)
}
