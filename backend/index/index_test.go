package index

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/search"
)

func newIndex(t *testing.T, files map[string]string) (*Index, string) {
	t.Helper()
	r, dir := fixture(t, files)
	x, err := NewIndex(r, dir, Options{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.Close() })
	return x, dir
}

// An index answers exactly as the disk does, cold and warm.
func TestIndexMatchesDisk(t *testing.T) {
	t.Parallel()
	x, _ := newIndex(t, repoFiles)
	cases := []search.Options{
		{Query: "needle"},
		{Query: "needle", IncludeHidden: true, IncludeIgnored: true},
		{Query: "needle", Glob: mustGlob(t, "src/**")},
		{Query: "NEEDLE", CaseInsensitive: true, Output: search.OutputCount},
		{Query: `needle \w+`, Regex: true, Context: 1},
	}
	for _, dir := range []string{".", "src", "node_modules"} {
		for _, opt := range cases {
			want, werr := search.Search(context.Background(), x.disk, dir, opt)
			for round := range 2 {
				got, gerr := search.Search(context.Background(), x, dir, opt)
				if (werr == nil) != (gerr == nil) || !reflect.DeepEqual(got, want) {
					t.Errorf("dir %s %+v round %d:\nindex %+v %v\ndisk  %+v %v", dir, opt, round, got, gerr, want, werr)
				}
			}
		}
	}
	if _, err := search.Search(context.Background(), x, "main.go", search.Options{Query: "x"}); err == nil {
		t.Error("searching a file as a directory succeeded")
	}
	if _, err := search.Search(context.Background(), x, "nope", search.Options{Query: "x"}); err == nil {
		t.Error("searching a missing directory succeeded")
	}
}

// eventually retries a search until check passes: the kernel reports changes asynchronously, in about a
// millisecond; the bound only stops a hung test.
func eventually(t *testing.T, x *Index, opt search.Options, check func(search.Result) bool) search.Result {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		res, err := search.Search(context.Background(), x, ".", opt)
		if err != nil {
			t.Fatal(err)
		}
		if check(res) {
			return res
		}
		if time.Now().After(deadline) {
			t.Fatalf("the index never caught up: %+v", res)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func TestIndexSeesChanges(t *testing.T) {
	t.Parallel()
	x, dir := newIndex(t, map[string]string{"a.txt": "alpha\n", "sub/b.txt": "beta\n", ".gitignore": "*.tmp\n"})
	warm := func() { search.Search(context.Background(), x, ".", search.Options{Query: "a"}) }
	warm()

	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("gamma\n"), 0o644)
	eventually(t, x, search.Options{Query: "gamma"}, func(r search.Result) bool { return len(r.Matches) == 1 })
	warm()
	os.WriteFile(filepath.Join(dir, "sub", "new.txt"), []byte("gamma again\n"), 0o644)
	eventually(t, x, search.Options{Query: "gamma"}, func(r search.Result) bool { return len(r.Matches) == 2 })
	warm()
	os.Rename(filepath.Join(dir, "sub"), filepath.Join(dir, "moved"))
	res := eventually(t, x, search.Options{Query: "gamma"}, func(r search.Result) bool {
		return len(r.Matches) == 2 && r.Matches[1].Path == "moved/new.txt"
	})
	_ = res
	warm()
	os.Remove(filepath.Join(dir, "a.txt"))
	eventually(t, x, search.Options{Query: "gamma"}, func(r search.Result) bool { return len(r.Matches) == 1 })
	// Ignore rules changing are seen too.
	os.WriteFile(filepath.Join(dir, "x.tmp"), []byte("gamma tmp\n"), 0o644)
	warm()
	os.WriteFile(filepath.Join(dir, ".gitignore"), []byte(""), 0o644)
	eventually(t, x, search.Options{Query: "gamma"}, func(r search.Result) bool { return len(r.Matches) == 2 })
}

// Rooted's own writes are visible to the very next search, with no wait for the kernel.
func TestIndexInvalidateIsImmediate(t *testing.T) {
	t.Parallel()
	x, dir := newIndex(t, map[string]string{"a.txt": "old\n"})
	for i := range 20 {
		search.Search(context.Background(), x, ".", search.Options{Query: "o"})
		content := strings.Repeat("x", i) + "fresh\n"
		os.WriteFile(filepath.Join(dir, "a.txt"), []byte(content), 0o644)
		x.Invalidate("a.txt", false)
		res, _ := search.Search(context.Background(), x, ".", search.Options{Query: "fresh"})
		if len(res.Matches) != 1 || res.Matches[0].Text != strings.TrimSuffix(content, "\n") {
			t.Fatalf("round %d: %+v", i, res)
		}
	}
}

func TestIndexConcurrentChangesAndSearches(t *testing.T) {
	t.Parallel()
	x, dir := newIndex(t, map[string]string{"a.txt": "v0\n"})
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 50 {
				if w == 0 {
					os.WriteFile(filepath.Join(dir, "a.txt"), []byte("v"+strings.Repeat("1", i)+"\n"), 0o644)
					x.Invalidate("a.txt", false)
					continue
				}
				if _, err := search.Search(context.Background(), x, ".", search.Options{Query: "v"}); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	eventually(t, x, search.Options{Query: "v" + strings.Repeat("1", 49) + "\n", Regex: false}, func(r search.Result) bool { return true })
	res, _ := search.Search(context.Background(), x, ".", search.Options{Query: strings.Repeat("1", 49)})
	if len(res.Matches) != 1 {
		t.Errorf("after the writes settle the index holds the last content: %+v", res)
	}
}

// Searching one file through the index reads just that file, and does not spoil the index's full listing.
func TestSearchOneFile(t *testing.T) {
	t.Parallel()
	x, _ := newIndex(t, map[string]string{"a.go": "needle\n", "b.go": "needle\n", "sub/a.go": "needle\n", ".hidden": "needle\n"})
	for range 2 { // the second time through the index's cache
		res, err := search.Search(context.Background(), x, "", search.Options{Query: "needle", File: "a.go"})
		if err != nil || len(res.Matches) != 1 || res.Matches[0].Path != "a.go" {
			t.Errorf("%+v, %v", res.Matches, err)
		}
	}
	res, _ := search.Search(context.Background(), x, "", search.Options{Query: "needle"})
	if res.Total != 3 {
		t.Errorf("a full search after a one-file search found %d matches, want 3 (a.go, b.go, sub/a.go)", res.Total)
	}
}

// A search never waits for the index to start (its watcher walks the whole tree first): until it has, Indexes
// answers with the disk, and the results are the same; once it has, the index answers.
func TestIndexesNeverMakeASearchWait(t *testing.T) {
	t.Parallel()
	r, dir := fixture(t, map[string]string{"a.go": "needle\n", "sub/b.go": "needle\n", ".gitignore": "*.log\n", "x.log": "needle\n"})
	s := &Indexes{}
	defer s.Close()
	for _, src := range []search.Source{s.Source(r, dir), nil} {
		if src == nil {
			if !s.Live(r) { // waits for the start
				t.Fatal("the index is not live once started")
			}
			if src = s.Source(r, dir); reflect.TypeOf(src) != reflect.TypeOf(&Index{}) {
				t.Fatalf("after the start the source is %T, want the index", src)
			}
		}
		res, err := search.Search(context.Background(), src, "", search.Options{Query: "needle", Output: search.OutputCount})
		if err != nil || res.Total != 2 {
			t.Errorf("%T: %+v, %v", src, res, err)
		}
	}
}

// A search made while the index starts reads the disk, and the index builds its trigrams as soon as it has
// started, not at the next search, which may come much later (on a 460k-file project the first search ended before
// the watcher's first walk, and the build began with the second). Also when the index started between the search's
// Source and its walk, and when a kept index could not be used. A project never searched builds nothing.
func TestASearchWhileStartingBuildsOnceStarted(t *testing.T) {
	t.Parallel()
	files := map[string]string{"a.go": "needle\n", "sub/b.go": "haystack\n"}
	count := func(t *testing.T, src search.Source) {
		t.Helper()
		res, err := search.Search(context.Background(), src, "", search.Options{Query: "needle", Output: search.OutputCount})
		if err != nil || res.Total != 1 {
			t.Fatalf("%T: %+v, %v", src, res, err)
		}
	}
	builds := func(t *testing.T, s *Indexes, r *os.Root) int {
		t.Helper()
		s.mu.Lock()
		idx, same := s.idx, s.root == r
		s.mu.Unlock()
		if idx == nil || !same {
			t.Fatal("no index")
		}
		idx.tri.mu.Lock()
		defer idx.tri.mu.Unlock()
		return idx.tri.gen
	}
	// searchedWhileHeld searches r while its index's start is held, then lets the index start.
	searchedWhileHeld := func(t *testing.T, r *os.Root, dir string) *Indexes {
		t.Helper()
		s := &Indexes{hold: make(chan struct{})}
		t.Cleanup(func() { s.Close() })
		count(t, s.Source(r, dir)) // the index cannot start before this search ends: it is held
		close(s.hold)
		if !s.Live(r) {
			t.Fatal("not live once started")
		}
		return s
	}
	built := func(t *testing.T, s *Indexes, r *os.Root) {
		t.Helper()
		waitFor(t, "the trigram index, with no other search", func() bool {
			_, _, st, ok := s.Memory(r)
			return ok && st.Ready && st.Files == 2
		})
	}

	t.Run("searched before the start", func(t *testing.T) {
		t.Parallel()
		r, dir := fixture(t, files)
		s := searchedWhileHeld(t, r, dir)
		if builds(t, s, r) == 0 {
			t.Fatal("no build started with the index")
		}
		built(t, s, r)
	})
	t.Run("started during the search", func(t *testing.T) {
		t.Parallel()
		r, dir := fixture(t, files)
		s := &Indexes{}
		defer s.Close()
		src := s.Source(r, dir)
		if !s.Live(r) {
			t.Fatal("not live once started")
		}
		if builds(t, s, r) != 0 {
			t.Fatal("a build started with no search")
		}
		count(t, src) // the source of before the start
		built(t, s, r)
	})
	t.Run("a kept index of no use", func(t *testing.T) {
		t.Parallel()
		r, dir := fixture(t, files)
		x, err := NewIndex(r, dir, Options{}) // kept where Indexes keeps it (the user's cache: the tests' own)
		if err != nil {
			t.Fatal(err)
		}
		count(t, x)
		waitNarrowed(t, x)
		waitMerged(t, x)
		x.Close()
		// The manifest names a segment that is gone: the kept index cannot be loaded.
		segs, _ := filepath.Glob(filepath.Join(indexDir(dir, ""), "*.tri"))
		if len(segs) == 0 {
			t.Fatal("no segment kept")
		}
		for _, p := range segs {
			os.Remove(p)
		}
		built(t, searchedWhileHeld(t, r, dir), r)
	})
	t.Run("never searched", func(t *testing.T) {
		t.Parallel()
		r, dir := fixture(t, files)
		s := &Indexes{}
		defer s.Close()
		s.Source(r, dir)
		if !s.Live(r) {
			t.Fatal("not live once started")
		}
		if n := builds(t, s, r); n != 0 {
			t.Errorf("a project never searched: %d builds started, want none", n)
		}
	})
}

// A walk for a search that reads every file (nothing narrows it) goes to the disk, whose folders it opens as it
// walks, even when a list is in memory; the same walk without ReadAll comes from the list, numbered.
func TestReadAllWalksTheDisk(t *testing.T) {
	t.Parallel()
	x, _ := newIndex(t, map[string]string{"a.go": "a\n", "d/b.go": "b\n", "d/e/c.go": "c\n"})
	walk := func(opt search.WalkOptions) (fromDisk, numbered int, paths []string) {
		err := x.Walk(context.Background(), "", opt, func(f search.File) bool {
			if f.Dir != nil {
				fromDisk++
			}
			if f.Ordinal > 0 {
				numbered++
			}
			paths = append(paths, f.Rel)
			f.Release()
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
		return
	}
	walk(search.WalkOptions{}) // the list, made
	disk, numbered, listed := walk(search.WalkOptions{})
	if disk != 0 || numbered != 3 {
		t.Errorf("from the list: %d files from the disk, %d numbered; want 0 and 3", disk, numbered)
	}
	disk, numbered, walked := walk(search.WalkOptions{ReadAll: true})
	if disk != 3 || numbered != 0 {
		t.Errorf("reading all: %d files from the disk, %d numbered; want 3 and 0", disk, numbered)
	}
	if !reflect.DeepEqual(listed, walked) {
		t.Errorf("the disk walk %v and the list %v differ", walked, listed)
	}
}
