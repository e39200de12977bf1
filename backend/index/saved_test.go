package index

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/search"
)

// A trigram index is kept between openings of a project: the second opening narrows from its first search, and
// a file changed, created or removed while the project was closed is searched as it is now, never answered from
// the index kept. A file rewritten with its old size and modification time is found changed too (its change
// time is the kernel's).
func TestReopenedIndexIsCheckedAgainstTheTree(t *testing.T) {
	t.Parallel()
	r, dir, cache, files := keptProject(t, nil)

	// While closed: a file rewritten at its old size and modification time, one grown, one created, one removed, a
	// binary file made text, an ignored file un-ignored.
	rewriteAtSameTimes(t, dir, "d2/f002.txt", strings.Replace(files["d2/f002.txt"], "line", "nedl", 1))
	os.WriteFile(filepath.Join(dir, "d3", "f003.txt"), []byte("now a needle here\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "d4", "new.txt"), []byte("a new needle\n"), 0o644)
	os.Remove(filepath.Join(dir, "d1", "f001.txt"))
	os.WriteFile(filepath.Join(dir, "bin.dat"), []byte("needle, text now\n"), 0o644)
	os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("# nothing\n"), 0o644)

	y, err := NewIndex(r, dir, Options{CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	defer y.Close()
	for _, q := range []search.Options{
		{Query: "zzz-not-there", Output: search.OutputCount},
		{Query: "needle", Output: search.OutputFiles, Limit: 1000},
		{Query: "nedl", Output: search.OutputCount},
		{Query: "line", Output: search.OutputCount, Limit: 1000},
	} {
		c := &countingIndex{Index: y}
		got, err1 := search.Search(context.Background(), c, "", q)
		want, err2 := search.Search(context.Background(), search.DiskSource{Root: r}, "", q)
		if err1 != nil || err2 != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("reopened, query %+v:\nnarrowed %+v (%v)\nfull scan %+v (%v)", q, got, err1, want, err2)
		}
		// Narrowed from the first search: read are the files changed while closed and the candidates.
		if q.Query == "zzz-not-there" && c.n.Load() > 6 {
			t.Errorf("reopened, a literal in no file read %d files", c.n.Load())
		}
	}
	// The check runs in the background, beside the searches: once it has ended, the changed files are noted.
	waitFor(t, "the check to end", func() bool { _, _, st := y.Memory(); return st.Ready })
	if _, _, st := y.Memory(); !st.Reopened || st.Changed < 3 {
		t.Errorf("reopened: %+v, want the index kept and the changed files noted", st)
	}
}

// A manifest that is not one this version wrote, or segments cut short, are not used: the index is built anew.
func TestReopenedIndexDamaged(t *testing.T) {
	t.Parallel()
	for _, damage := range []string{"manifest", "segment"} {
		t.Run(damage, func(t *testing.T) {
			t.Parallel()
			r, dir, cache, _ := keptProject(t, nil)
			kept := indexDir(dir, cache)
			entries, _ := os.ReadDir(kept)
			cut := 0
			for _, e := range entries {
				if (damage == "manifest") == (e.Name() == manifestName) {
					if err := os.WriteFile(filepath.Join(kept, e.Name()), []byte("cut"), 0o644); err != nil {
						t.Fatal(err)
					}
					cut++
				}
			}
			if cut == 0 {
				t.Fatalf("no %s kept in %s to damage: %v", damage, kept, entries)
			}
			y, err := NewIndex(r, dir, Options{CacheDir: cache})
			if err != nil {
				t.Fatal(err)
			}
			defer y.Close()
			if res, err := search.Search(context.Background(), y, "", search.Options{Query: "needle", Output: search.OutputCount}); err != nil || res.Total != 1 {
				t.Errorf("%s damaged: %+v %v", damage, res, err)
			}
			if _, _, st := y.Memory(); st.Reopened {
				t.Errorf("%s damaged, yet the index was kept", damage)
			}
			waitNarrowed(t, y)
		})
	}
}

// The build fills the text cache only when the project's text is within fillLimit times the budget: past it the
// cache would hold a few percent of the project for all of the budget in memory.
func TestBuildFillsTheCacheOnlyWhenItHoldsEnough(t *testing.T) {
	t.Parallel()
	files := map[string]string{}
	for i := range 200 {
		files[fmt.Sprintf("f%03d.txt", i)] = fmt.Sprintf("%-99d\n", i) // 100 bytes each, 20,000 in all
	}
	r, dir := fixture(t, files)
	for _, c := range []struct {
		budget int64
		fill   bool
	}{{1 << 20, true}, {1000, false}} { // 1000: room for 10 files, a 20th of the text
		x, err := NewIndex(r, dir, Options{CacheDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		x.SetBudget(c.budget)
		waitNarrowed(t, x)
		if cached, _, _ := x.Memory(); (cached > 0) != c.fill {
			t.Errorf("budget %d for 20,000 bytes of text: %d bytes cached by the build", c.budget, cached)
		}
		x.Close()
	}
}

// Where the build leaves the text cache alone, it keeps the files that narrowed searches keep reading: a file
// named a candidate by a second search is kept, within hotShare of the budget, and dropped when it changes; a
// search made once, or one of more than hotCandidates candidates, keeps nothing.
func TestSearchesKeepTheFilesTheyKeepReading(t *testing.T) {
	t.Parallel()
	extra := map[string]string{}
	for _, name := range []string{"f010.txt", "f020.txt", "f030.txt"} {
		extra[name] = fmt.Sprintf("%-99s\n", "a needle in "+name)
	}
	x, dir := hotProject(t, extra)
	count := func(query string) int {
		t.Helper()
		return matches(t, x, search.Options{Query: query})
	}
	cached := func() int64 { return cachedBytes(x) }
	if c := cached(); c != 0 {
		t.Fatalf("%d bytes cached by the build of a project 20 times the budget", c)
	}
	// While a build or merge runs, searches keep nothing (its peak and a full cache together passed 300 MiB).
	setBusy := func(b bool) { x.tri.mu.Lock(); x.tri.building = b; x.tri.mu.Unlock() }
	setBusy(true)
	for range 3 {
		if n := count("needle"); n != 3 {
			t.Fatalf("needle counted %d times, want 3", n)
		}
	}
	setBusy(false)
	if c := cached(); c != 0 {
		t.Fatalf("%d bytes cached by searches while a build ran", c)
	}
	x.hotCandidates = 2
	for range 2 {
		if n := count("needle"); n != 3 {
			t.Fatalf("needle counted %d times, want 3", n)
		}
	}
	if c := cached(); c != 0 {
		t.Fatalf("%d bytes cached by two searches of 3 candidates each, over hotCandidates 2", c)
	}
	x.hotCandidates = hotCandidates
	if n := count("needle"); n != 3 || cached() != 0 {
		t.Fatalf("the first narrowed search counted: %d matches, %d bytes cached; want 3 and none", n, cached())
	}
	if n := count("needle"); n != 3 || cached() != 300 {
		t.Fatalf("a second search: %d matches, %d bytes cached; want 3, and the 3 candidates' 300 bytes", n, cached())
	}
	// A command empties the cache but not the counts: the next search keeps its files again, unless a build runs.
	x.CommandRan()
	setBusy(true)
	if n := count("needle"); n != 3 || cached() != 0 {
		t.Fatalf("a search while a build ran: %d matches, %d bytes cached; want 3 and none", n, cached())
	}
	setBusy(false)
	if n := count("needle"); n != 3 || cached() != 300 {
		t.Fatalf("a search after a command: %d matches, %d bytes cached; want 3 and 300", n, cached())
	}
	// Kept text answers the next search; a change drops it, and the search reads the new text. (The watcher's
	// own report of a change comes later and drops what was kept again, so only the count is certain here.)
	if err := os.WriteFile(filepath.Join(dir, "f020.txt"), []byte("no longer\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	x.Invalidate("f020.txt", false)
	if n := count("needle"); n != 2 || cached() > 210 {
		t.Fatalf("after f020.txt changed: %d matches, %d bytes cached; want 2 and at most 210", n, cached())
	}
	// Never past hotShare of the budget, 500 bytes: of eight files of 100 bytes, those that fit beside the
	// others, once the watcher's reports are in.
	for i := range 8 {
		name := fmt.Sprintf("f%03d.txt", 100+i)
		if err := os.WriteFile(filepath.Join(dir, name), fmt.Appendf(nil, "%-99s\n", "a pin in "+name), 0o644); err != nil {
			t.Fatal(err)
		}
		x.Invalidate(name, false)
	}
	// (The command above paused the trigram index's narrowing a while: searches count reads once it is back.)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if n := count("pin"); n != 8 {
			t.Fatalf("pin counted %d times, want 8", n)
		}
		c := cached()
		if c > 500 {
			t.Fatalf("%d bytes cached, past the 500 of hotShare of the budget", c)
		}
		if c >= 400 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d bytes cached; want the files that fit in the 500 of hotShare of the budget, 400 at least", c)
		}
	}
}

// hotProject is a project of 200 files of 100 bytes (f000.txt to f199.txt) and extra, with a budget of 1000 bytes
// (room for 5 files in hotShare of it, where the text is 20 times the budget, so the build fills nothing), its
// trigram index built and merged: searches may keep what they keep reading.
func hotProject(t *testing.T, extra map[string]string) (*Index, string) {
	t.Helper()
	files := map[string]string{}
	for i := range 200 {
		files[fmt.Sprintf("f%03d.txt", i)] = fmt.Sprintf("%-99d\n", i)
	}
	maps.Copy(files, extra)
	r, dir := fixture(t, files)
	x, err := NewIndex(r, dir, Options{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.Close() })
	x.SetBudget(1000)
	waitNarrowed(t, x)
	waitMerged(t, x) // searches fill the cache only once no build or merge runs
	return x, dir
}

// Text read through a link is never kept, nor a filter of it: the watcher reports a change by the target's path,
// and the link's kept text or filter would answer searches with what the target held before.
func TestSearchesNeverKeepALinksText(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("needle. flewort work. ", gramMin/20)
	x, dir := hotProject(t, map[string]string{"a.txt": "a needle\n", "l.txt => a.txt": "", "big.txt": big, "m.txt => big.txt": ""})
	x.SetBudget(4 << 20) // room for big.txt's filter
	for range 3 {
		if n := matches(t, x, search.Options{Query: "needle"}); n != 4 { // lines: big.txt is one
			t.Fatalf("needle on %d lines, want 4", n)
		}
		matches(t, x, search.Options{Query: "needlework"})
	}
	rewrite := func(rel, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, rel), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		x.Invalidate(rel, false) // what the watcher reports: the target's path
	}
	rewrite("a.txt", "nothing\n")
	rewrite("big.txt", big+"needlework\n")
	if n := matches(t, x, search.Options{Query: "needle"}); n != 2 {
		t.Errorf("after a.txt lost its needle: on %d lines; want big.txt's and m.txt's alone", n)
	}
	if n := matches(t, x, search.Options{Query: "needlework"}); n != 2 {
		t.Errorf("after big.txt gained needlework: %d matches, want 2 (big.txt and its link m.txt)", n)
	}
}

// Nor does the build keep a link's text where it fills the cache.
func TestBuildNeverKeepsALinksText(t *testing.T) {
	t.Parallel()
	r, dir := fixture(t, map[string]string{"a.txt": "a needle\n", "l.txt => a.txt": ""})
	x, err := NewIndex(r, dir, Options{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	waitNarrowed(t, x)
	if cached, _, _ := x.Memory(); cached == 0 {
		t.Fatal("the build filled nothing")
	}
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("nothing\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	x.Invalidate("a.txt", false) // what the watcher reports: the target's path
	if n := matches(t, x, search.Options{Query: "needle"}); n != 0 {
		t.Errorf("after a.txt lost its needle: %d matches, want none (the link's text kept by the build)", n)
	}
}

// A file that becomes ignored is not kept by searches that include ignored files: the watcher does not report an
// ignored file's changes, so its kept text would go stale.
func TestSearchesNeverKeepAnIgnoredFilesText(t *testing.T) {
	t.Parallel()
	x, dir := hotProject(t, map[string]string{"sub/f.txt": "a needle\n"})
	for range 2 {
		if n := matches(t, x, search.Options{Query: "needle"}); n != 1 {
			t.Fatalf("needle counted %d times, want 1", n)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("sub/f.txt\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	eventually(t, x, search.Options{Query: "needle", Output: search.OutputCount}, func(r search.Result) bool { return len(r.Files) == 0 })
	waitNarrowed(t, x)
	waitMerged(t, x)
	withIgnored := search.Options{Query: "needle", IncludeIgnored: true}
	for range 3 {
		if n := matches(t, x, withIgnored); n != 1 {
			t.Fatalf("needle counted %d times with ignored files, want 1", n)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "sub/f.txt"), []byte("gone\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if n := matches(t, x, withIgnored); n != 0 {
		t.Errorf("after the ignored sub/f.txt lost its needle: %d matches, want 0", n)
	}
}

// The cache keeps the indexes of the projects opened most recently, keptIndexes of them: a new one prunes the
// oldest, never its own.
func TestKeptIndexesAreBounded(t *testing.T) {
	t.Parallel()
	cache := t.TempDir()
	folder := filepath.Join(cache, "rooted", "search")
	for i := range keptIndexes + 3 {
		old := filepath.Join(folder, fmt.Sprintf("old%02d", i))
		os.MkdirAll(old, 0o700)
		at := time.Now().Add(-time.Duration(100-i) * time.Hour) // old00 the oldest
		os.Chtimes(old, at, at)
	}
	r, dir := fixture(t, map[string]string{"a.txt": "needle\n"})
	x, err := NewIndex(r, dir, Options{CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	waitNarrowed(t, x)
	entries, _ := os.ReadDir(folder)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	own := filepath.Base(x.tri.dir)
	if len(names) != keptIndexes || !slices.Contains(names, own) || slices.Contains(names, "old03") || !slices.Contains(names, "old10") {
		t.Errorf("kept %v; want %d, %s and the newest others", names, keptIndexes, own)
	}
}
