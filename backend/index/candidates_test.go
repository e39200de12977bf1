package index

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/search"
)

// candidateWalk runs the candidate walk for opt under dir and returns the files it yielded and how many it counted
// as ruled out in all; it fails the test when the walk declines.
func candidateWalk(t *testing.T, x *Index, dir string, opt search.Options) (yielded []string, ruledOut int) {
	t.Helper()
	rest, ok, err := x.WalkCandidates(context.Background(), dir, opt, func(f search.File, n int) bool {
		yielded = append(yielded, f.Rel)
		ruledOut += n
		return true
	})
	if err != nil || !ok {
		t.Fatalf("candidate walk of %q for %q: ok %v, %v", dir, opt.Query, ok, err)
	}
	return yielded, ruledOut + rest
}

// Once the trigram index is in, a search is given only its candidates: the files the posting lists name, the
// files changed since the build and the files the index does not cover; every other file is counted, not
// visited, so a literal in no file yields nothing however big the project.
func TestCandidateWalkYieldsOnlyCandidates(t *testing.T) {
	t.Parallel()
	files := map[string]string{"bin/data.bin": "needle\x00binary", "d0/late.txt": "nothing here\n"}
	for i := range 400 {
		files[fmt.Sprintf("d%d/f%03d.txt", i%4, i)] = fmt.Sprintf("line %d\n", i)
	}
	for _, p := range []string{"d1/f001.txt", "d2/f002.txt", "d3/f399.txt"} {
		files[p] = "a needle here\n"
	}
	r, dir := fixture(t, files)
	x, err := NewIndex(r, dir, Options{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	waitNarrowed(t, x)
	waitMerged(t, x)
	// The first narrowed search walks the disk once for the list of files, which later searches keep.
	if _, err := search.Search(context.Background(), x, "", search.Options{Query: "needle"}); err != nil {
		t.Fatal(err)
	}
	text := len(files) - 1 // all but the binary file are counted as searched
	if got, n := candidateWalk(t, x, "", search.Options{Query: "zzz-not-there"}); len(got) != 0 || n != text {
		t.Errorf("a literal in no file: yielded %v, counted %d ruled out, want none and %d", got, n, text)
	}
	if got, n := candidateWalk(t, x, "", search.Options{Query: "needle"}); !slices.Equal(got, []string{"d1/f001.txt", "d2/f002.txt", "d3/f399.txt"}) || n != text-3 {
		t.Errorf("needle: yielded %v, %d ruled out", got, n)
	}
	if got, n := candidateWalk(t, x, "d2", search.Options{Query: "needle"}); !slices.Equal(got, []string{"d2/f002.txt"}) || n != 99 {
		t.Errorf("needle in d2: yielded %v, %d ruled out, want d2/f002.txt and 99", got, n)
	}
	// Changed since the build: yielded whatever the index says, the binary file too (text now).
	os.WriteFile(filepath.Join(dir, "d0", "late.txt"), []byte("a needle now\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "bin", "data.bin"), []byte("needle, text now\n"), 0o644)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, _, st := x.Memory(); st.Changed >= 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the watcher did not report the changes")
		}
	}
	want := []string{"bin/data.bin", "d0/late.txt"}
	if got, n := candidateWalk(t, x, "", search.Options{Query: "zzz-not-there"}); !slices.Equal(got, want) || n != text-1 {
		t.Errorf("after two changes, a literal in no file: yielded %v, %d ruled out; want %v and %d", got, n, want, text-1)
	}
	res, err := search.Search(context.Background(), x, "", search.Options{Query: "needle", Output: search.OutputCount})
	if err != nil || res.Total != 5 || res.FilesSearched != len(files) {
		t.Errorf("needle after the changes: %+v %v, want 5 in %d files searched", res, err, len(files))
	}
}

// Paths compare as a sorted walk yields them, folder by folder.
func TestComparePaths(t *testing.T) {
	t.Parallel()
	order := []string{"a/b", "a/c/d", "a/c-e", "a-c", "a.go", "b", "b0/x", "b0x"}
	if !inPathOrder(order) {
		t.Errorf("%v is not in path order", order)
	}
	for i := range order {
		for j := range order {
			if c := comparePaths(order[i], order[j]); (c < 0) != (i < j) || (c == 0) != (i == j) {
				t.Errorf("comparePaths(%q, %q) = %d", order[i], order[j], c)
			}
		}
	}
	l := newFileList(order)
	if lo, hi := l.span("a/c"); lo != 1 || hi != 2 {
		t.Errorf("span(a/c) = %d, %d; want 1, 2", lo, hi)
	}
	if lo, hi := l.span("a"); lo != 0 || hi != 3 {
		t.Errorf("span(a) = %d, %d; want 0, 3", lo, hi)
	}
	if i, ok := l.find("b0/x"); !ok || i != 6 {
		t.Errorf("find(b0/x) = %d, %v", i, ok)
	}
}

// A first build is used as it lands: while it goes on, a search narrows with the files it has indexed and reads
// every file it has not, with results exactly a full scan's.
func TestBuildUsableAsItLands(t *testing.T) {
	t.Parallel()
	files := map[string]string{"bin.dat": "needle\x00binary"}
	for i := range 600 {
		files[fmt.Sprintf("d%d/f%03d.txt", i%6, i)] = fmt.Sprintf("line %d of %d\n", i, i*7919)
	}
	for _, p := range []string{"d0/f000.txt", "d5/f599.txt", "d3/f303.txt"} {
		files[p] = "a needle\n"
	}
	r, dir := fixture(t, files)
	x, err := NewIndex(r, dir, Options{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	x.tri.pairs = 2000
	type seen struct {
		diff           string
		files, covered int
		reads          int64
	}
	checks := make(chan seen, 100)
	x.tri.published = func() {
		var s seen
		_, _, st := x.Memory()
		s.covered = st.Files
		for _, q := range []search.Options{{Query: "needle", Output: search.OutputFiles, Limit: 1000}, {Query: "line 12", Output: search.OutputCount}, {Query: "zzz-not-there"}} {
			got, err1 := search.Search(context.Background(), x, "", q)
			want, err2 := search.Search(context.Background(), search.DiskSource{Root: r}, "", q)
			if err1 != nil || err2 != nil || !reflect.DeepEqual(got, want) {
				s.diff = fmt.Sprintf("query %+v:\nnarrowed %+v (%v)\nfull scan %+v (%v)", q, got, err1, want, err2)
			}
			s.files = want.FilesSearched
		}
		s.reads = reads(t, x, search.Options{Query: "zzz-not-there"})
		checks <- s
	}
	waitNarrowed(t, x)
	close(checks)
	n := 0
	for s := range checks {
		n++
		if s.diff != "" {
			t.Errorf("with %d files indexed: %s", s.covered, s.diff)
		}
		// Read are the files not indexed yet: all but those in and the binary one.
		if s.covered == 0 || s.reads != int64(s.files-s.covered) {
			t.Errorf("with %d of %d files indexed, a literal in no file read %d", s.covered, s.files, s.reads)
		}
	}
	if n == 0 {
		t.Error("the build was not used before it was in")
	}
}

// A file created or removed updates the lists in memory in place: the next search walks nothing (on a big project
// a walk of the tree after every file an agent creates), and still sees exactly the files a walk would.
func TestListsFollowCreatesAndRemoves(t *testing.T) {
	t.Parallel()
	files := map[string]string{".gitignore": "*.log\n", "a/x.txt": "needle\n", "b/y.txt": "other\n", "b/sub/z.txt": "needle\n"}
	r, dir := fixture(t, files)
	os.MkdirAll(filepath.Join(dir, "c"), 0o755) // empty when the lists are made
	x, err := NewIndex(r, dir, Options{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	waitNarrowed(t, x)
	os.WriteFile(filepath.Join(dir, "a", "new.txt"), []byte("needle\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "a", "skip.log"), []byte("needle\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "c", "n.txt"), []byte("needle\n"), 0o644)
	os.RemoveAll(filepath.Join(dir, "b", "sub"))
	want := []string{"a/new.txt", "a/x.txt", "b/y.txt", "c/n.txt"}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		x.mu.RLock()
		l := x.lists[listKey{}]
		x.mu.RUnlock()
		if l == nil {
			t.Fatal("the list was dropped")
		}
		if slices.Equal(l.names, want) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("list %v, want %v", l.names, want)
		}
	}
	got, err1 := search.Search(context.Background(), x, "", search.Options{Query: "needle", Output: search.OutputFiles})
	disk, err2 := search.Search(context.Background(), search.DiskSource{Root: r}, "", search.Options{Query: "needle", Output: search.OutputFiles})
	if err1 != nil || err2 != nil || !reflect.DeepEqual(got, disk) {
		t.Errorf("after the changes: %+v (%v), a full scan %+v (%v)", got, err1, disk, err2)
	}
}
