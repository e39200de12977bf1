package index

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

	"github.com/rooted-dev/rooted/backend/search"
)

// waitNarrowed waits until the index's trigram index is built and in use: a search asks for a build, then the
// test waits without searching (a build yields to searches). The deadline only stops a hung test.
func waitNarrowed(t *testing.T, x *Index) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		if _, _, st := x.Memory(); st.Ready && st.Changed == 0 {
			return
		}
		x.tri.mu.Lock()
		building := x.tri.building
		x.tri.mu.Unlock()
		if !building {
			search.Search(context.Background(), x, "", search.Options{Query: "warm-up", Output: search.OutputCount})
		}
		if time.Now().After(deadline) {
			t.Fatal("the trigram index was not built")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitMerged waits until the build's segments are merged into one (or there was one): no build or merge runs.
func waitMerged(t testing.TB, x *Index) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		x.tri.mu.Lock()
		done := !x.tri.building && x.tri.segs != nil
		x.tri.mu.Unlock()
		if done {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the trigram index's segments were not merged")
		}
	}
}

// Searches narrowed by the trigram index return exactly what a full scan of the disk returns: for literal,
// case-insensitive and regexp queries, in every output mode, before and right after files change (edited,
// created, deleted, folders renamed), and right after a command ran.
func TestNarrowedSearchesEqualFullScans(t *testing.T) {
	t.Parallel()
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
	files := map[string]string{
		".gitignore": "ignored/\n*.later\n", "ignored/x.go": "needle ignored\n", ".hidden/h.go": "needle hidden\n", "bin.dat": "needle\x00binary",
		"d2/unignored.later": "needle ErrShortWrite, ignored at the build\n",
	}
	for i := range 300 {
		files[fmt.Sprintf("d%d/f%d.go", i%17, i)] = text()
	}
	r, dir := fixture(t, files)
	x, err := NewIndex(r, dir, Options{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	x.tri.pairs = 3000 // several segments, merged into one once the build is in
	queries := []search.Options{
		{Query: "ErrShortWrite"},
		{Query: "needle", Output: search.OutputCount, Limit: 1000},
		{Query: "needle", CaseInsensitive: true, Output: search.OutputFiles, Limit: 1000},
		{Query: `Err\w+Write`, Regex: true, Limit: 1000},
		{Query: `func\s+Close`, Regex: true, Output: search.OutputCount, Limit: 1000},
		{Query: "日本", Limit: 1000},
		{Query: "x", Limit: 1000},
		{Query: "needle", IncludeHidden: true, IncludeIgnored: true, Limit: 1000},
		{Query: "Needle needle", Limit: 1000},
		{Query: `(?i)close\nerror`, Regex: true, Limit: 1000},
		{Query: "zzz-not-there"},
	}
	// differ returns how the first query that differs between the index and a full scan of the disk differs, for
	// the whole project and for folders of it (one renamed away below: both must fail alike).
	differ := func() string {
		for _, dir := range []string{"", "d3", "d12", "new1", ".hidden", "ignored"} {
			for _, q := range queries {
				got, err1 := search.Search(context.Background(), x, dir, q)
				want, err2 := search.Search(context.Background(), search.DiskSource{Root: r}, dir, q)
				if (err1 == nil) != (err2 == nil) || !reflect.DeepEqual(got, want) {
					return fmt.Sprintf("in %q, query %+v:\nnarrowed %+v (%v)\nfull scan %+v (%v)", dir, q, got, err1, want, err2)
				}
			}
		}
		return ""
	}
	check := func(when string) {
		t.Helper()
		if d := differ(); d != "" {
			t.Fatalf("%s, %s", when, d)
		}
	}
	// settled checks once the watcher has reported what changed (milliseconds; the deadline only stops a hung
	// test): until then the index may answer from before the change, which is why Rooted's own writes tell it
	// at once.
	settled := func(when string) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			d := differ()
			if d == "" {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s, 10 s after the changes: %s", when, d)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	waitNarrowed(t, x)
	check("built")
	waitMerged(t, x)
	check("merged")
	if _, _, st := x.Memory(); st.Segments != 1 {
		t.Errorf("%d segments after the merge, want 1", st.Segments)
	}
	// The merged segment and the manifest that keeps it for the next opening, once the manifest names it.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		entries, _ := os.ReadDir(x.tri.dir)
		if len(entries) == 2 && strings.HasSuffix(entries[0].Name(), "-merged.tri") && entries[1].Name() == manifestName {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("files beside the merged segment: %v", entries)
		}
	}
	// The rare literal reads only the files that hold it.
	if n := reads(t, x, search.Options{Query: "zzz-not-there"}); n != 0 {
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
		if round == 1 {
			// Binary at the build, text now: searched again, though the list still numbers it as binary.
			os.WriteFile(filepath.Join(dir, "bin.dat"), []byte("needle, text now\n"), 0o644)
		}
		if round == 2 {
			os.Rename(filepath.Join(dir, "d3"), filepath.Join(dir, "d3-renamed"))
		}
		if round == 3 {
			// A file ignored at the build, and so not in the index, is un-ignored: searched from now on.
			os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("ignored/\n"), 0o644)
		}
		settled(fmt.Sprintf("round %d", round))
		// Still narrowed: only the changed and new files are read for a literal no file holds (after the edit of
		// the ignore rules in round 3, once the index is rebuilt).
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			n := reads(t, x, search.Options{Query: "zzz-not-there"})
			if n <= 60 {
				break
			}
			if round < 3 || time.Now().After(deadline) {
				t.Fatalf("round %d: a literal in no file read %d files", round, n)
			}
		}
	}
	// A command wrote a file and ended: right away, searches see it.
	os.WriteFile(filepath.Join(dir, "d1", "by-command.go"), []byte("ErrShortWrite from a command\n"), 0o644)
	x.CommandRan()
	check("right after a command")
	// Narrowed again once the pause after a command is over.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		n := reads(t, x, search.Options{Query: "zzz-not-there"})
		if n <= 80 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("10 s after a command: a literal in no file still read %d files", n)
		}
	}
	check("after a command, narrowed again")
}

// countingIndex counts the files a search reads.
type countingIndex struct {
	*Index
	n atomic.Int64
}

func (c *countingIndex) Content(f search.File) ([]byte, func(), error) {
	c.n.Add(1)
	return c.Index.Content(f)
}

// reads runs a search through x and returns how many files it read.
func reads(t *testing.T, x *Index, opt search.Options) int64 {
	t.Helper()
	c := &countingIndex{Index: x}
	if _, err := search.Search(context.Background(), c, "", opt); err != nil {
		t.Fatal(err)
	}
	return c.n.Load()
}

// The trigram index is built in the background, out of the way of the searches the agent waits for: while a
// search runs the build reads no file, and once it ends the build goes on and finishes.
func TestBuildWaitsForSearches(t *testing.T) {
	// Not parallel: whether the build waits is read from every search of the process (search.Busy).
	x := needles(t, 200)
	done := search.Hold() // a search in progress, as far as the build can tell
	if res, err := search.Search(context.Background(), x, "", search.Options{Query: "needle", Output: search.OutputCount}); err != nil || res.Total != 200 {
		t.Fatalf("first search: %+v %v", res, err)
	}
	// The build is due now: it reaches its wait for the search, having read nothing.
	for deadline := time.Now().Add(10 * time.Second); !x.tri.yielder.Waiting(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the build never waited for the search in progress")
		}
	}
	if n := x.tri.read.Load(); n != 0 {
		t.Fatalf("the build read %d files while a search ran", n)
	}
	done()
	waitNarrowed(t, x)
	if n := x.tri.read.Load(); n < 200 {
		t.Errorf("the build read %d files of 200", n)
	}
}

// A rebuild after a rescan waits for searches as a first build does, and meanwhile the index it replaces, which
// knows nothing of what the rescan changed, narrows no search; once the search ends it goes on and finishes.
func TestRebuildWaitsForSearches(t *testing.T) {
	// Not parallel: whether the build waits is read from every search of the process (search.Busy).
	x := needles(t, 200)
	waitNarrowed(t, x)
	waitMerged(t, x)
	before := x.tri.read.Load()
	x.tri.changed("", true) // something paths cannot describe: the index must be built again
	done := search.Hold()   // a search in progress, as far as the build can tell
	if res, err := search.Search(context.Background(), x, "", search.Options{Query: "needle", Output: search.OutputCount}); err != nil || res.Total != 200 {
		t.Fatalf("search: %+v %v", res, err)
	}
	// The rebuild is due now: it reaches its wait for the search, having read nothing.
	for deadline := time.Now().Add(10 * time.Second); !x.tri.yielder.Waiting(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the rebuild never waited for the search in progress")
		}
	}
	if n := x.tri.read.Load() - before; n != 0 {
		t.Fatalf("the rebuild read %d files while a search ran", n)
	}
	if x.tri.keep(search.Options{Query: "needle"}) != nil {
		t.Error("a search narrowed by the index the rebuild replaces, which does not know what the rescan changed")
	}
	done()
	waitNarrowed(t, x)
	if n := x.tri.read.Load() - before; n < 200 {
		t.Errorf("the rebuild read %d files of 200", n)
	}
}

// needles is an index of n files, each holding "needle".
func needles(t *testing.T, n int) *Index {
	files := map[string]string{}
	for i := range n {
		files[fmt.Sprintf("d%d/f%d.txt", i%7, i)] = fmt.Sprintf("line %d needle\n", i)
	}
	r, dir := fixture(t, files)
	x, err := NewIndex(r, dir, Options{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.Close() })
	return x
}

// The merge of the build's segments is background work as the build is: while a search runs it waits, the
// segments as built stay in use, and once the search ends it goes on and one merged segment replaces them, with
// searches still exactly a full scan's.
func TestMergeWaitsForSearches(t *testing.T) {
	// Not parallel: whether the build waits is read from every search of the process (search.Busy).
	files := map[string]string{}
	for i := range 300 {
		files[fmt.Sprintf("d%d/f%d.txt", i%7, i)] = fmt.Sprintf("line %d needle %d %x\n", i, i*7919, i*104729)
	}
	r, dir := fixture(t, files)
	x, err := NewIndex(r, dir, Options{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	x.tri.pairs, x.tri.noMerge = 500, true // several segments, left as built for now
	waitNarrowed(t, x)
	waitMerged(t, x)
	x.tri.mu.Lock()
	segs, gen := x.tri.segs, x.tri.gen
	x.tri.building = true // as the build leaves it when it starts a merge
	x.tri.mu.Unlock()
	if len(segs) < 3 {
		t.Fatalf("%d segments built, the test needs several", len(segs))
	}
	done := search.Hold() // a search in progress, as far as the merge can tell
	go x.tri.merge(gen, segs)
	for deadline := time.Now().Add(10 * time.Second); !x.tri.yielder.Waiting(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the merge never waited for the search in progress")
		}
	}
	if _, _, st := x.Memory(); st.Segments != len(segs) {
		t.Fatalf("%d segments while the merge waits, want the %d built", st.Segments, len(segs))
	}
	done()
	waitMerged(t, x)
	if _, _, st := x.Memory(); st.Segments != 1 {
		t.Fatalf("%d segments after the merge, want 1", st.Segments)
	}
	for _, q := range []search.Options{{Query: "needle 7919 ", Output: search.OutputCount}, {Query: "line 29", Output: search.OutputFiles, Limit: 1000}} {
		got, err1 := search.Search(context.Background(), x, "", q)
		want, err2 := search.Search(context.Background(), search.DiskSource{Root: r}, "", q)
		if err1 != nil || err2 != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("query %+v:\nnarrowed %+v (%v)\nfull scan %+v (%v)", q, got, err1, want, err2)
		}
	}
	if n := reads(t, x, search.Options{Query: "zzz-not-there"}); n != 0 {
		t.Errorf("after the merge a literal in no file read %d files", n)
	}
}
