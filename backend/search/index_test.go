package search

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

func newIndex(t *testing.T, files map[string]string) (*Index, string) {
	t.Helper()
	r, dir := fixture(t, files)
	x, err := NewIndex(r, dir, Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.Close() })
	return x, dir
}

// An index answers exactly as the disk does, cold and warm.
func TestIndexMatchesDisk(t *testing.T) {
	x, _ := newIndex(t, repoFiles)
	cases := []Options{
		{Query: "needle"},
		{Query: "needle", IncludeHidden: true, IncludeIgnored: true},
		{Query: "needle", Glob: mustGlob(t, "src/**")},
		{Query: "NEEDLE", CaseInsensitive: true, Output: OutputCount},
		{Query: `needle \w+`, Regex: true, Context: 1},
	}
	for _, dir := range []string{".", "src", "node_modules"} {
		for _, opt := range cases {
			want, werr := Search(context.Background(), x.disk, dir, opt)
			for round := range 2 {
				got, gerr := Search(context.Background(), x, dir, opt)
				if (werr == nil) != (gerr == nil) || !reflect.DeepEqual(got, want) {
					t.Errorf("dir %s %+v round %d:\nindex %+v %v\ndisk  %+v %v", dir, opt, round, got, gerr, want, werr)
				}
			}
		}
	}
	if _, err := Search(context.Background(), x, "main.go", Options{Query: "x"}); err == nil {
		t.Error("searching a file as a directory succeeded")
	}
	if _, err := Search(context.Background(), x, "nope", Options{Query: "x"}); err == nil {
		t.Error("searching a missing directory succeeded")
	}
}

// eventually retries a search until check passes: the kernel reports changes asynchronously, in about a
// millisecond; the bound only stops a hung test.
func eventually(t *testing.T, x *Index, opt Options, check func(Result) bool) Result {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		res, err := Search(context.Background(), x, ".", opt)
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
	x, dir := newIndex(t, map[string]string{"a.txt": "alpha\n", "sub/b.txt": "beta\n", ".gitignore": "*.tmp\n"})
	warm := func() { Search(context.Background(), x, ".", Options{Query: "a"}) }
	warm()

	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("gamma\n"), 0o644)
	eventually(t, x, Options{Query: "gamma"}, func(r Result) bool { return len(r.Matches) == 1 })
	warm()
	os.WriteFile(filepath.Join(dir, "sub", "new.txt"), []byte("gamma again\n"), 0o644)
	eventually(t, x, Options{Query: "gamma"}, func(r Result) bool { return len(r.Matches) == 2 })
	warm()
	os.Rename(filepath.Join(dir, "sub"), filepath.Join(dir, "moved"))
	res := eventually(t, x, Options{Query: "gamma"}, func(r Result) bool {
		return len(r.Matches) == 2 && r.Matches[1].Path == "moved/new.txt"
	})
	_ = res
	warm()
	os.Remove(filepath.Join(dir, "a.txt"))
	eventually(t, x, Options{Query: "gamma"}, func(r Result) bool { return len(r.Matches) == 1 })
	// Ignore rules changing are seen too.
	os.WriteFile(filepath.Join(dir, "x.tmp"), []byte("gamma tmp\n"), 0o644)
	warm()
	os.WriteFile(filepath.Join(dir, ".gitignore"), []byte(""), 0o644)
	eventually(t, x, Options{Query: "gamma"}, func(r Result) bool { return len(r.Matches) == 2 })
}

// Rooted's own writes are visible to the very next search, with no wait for the kernel.
func TestIndexInvalidateIsImmediate(t *testing.T) {
	x, dir := newIndex(t, map[string]string{"a.txt": "old\n"})
	for i := range 20 {
		Search(context.Background(), x, ".", Options{Query: "o"})
		content := strings.Repeat("x", i) + "fresh\n"
		os.WriteFile(filepath.Join(dir, "a.txt"), []byte(content), 0o644)
		x.Invalidate("a.txt", false)
		res, _ := Search(context.Background(), x, ".", Options{Query: "fresh"})
		if len(res.Matches) != 1 || res.Matches[0].Text != strings.TrimSuffix(content, "\n") {
			t.Fatalf("round %d: %+v", i, res)
		}
	}
}

func TestIndexConcurrentChangesAndSearches(t *testing.T) {
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
				if _, err := Search(context.Background(), x, ".", Options{Query: "v"}); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	eventually(t, x, Options{Query: "v" + strings.Repeat("1", 49) + "\n", Regex: false}, func(r Result) bool { return true })
	res, _ := Search(context.Background(), x, ".", Options{Query: strings.Repeat("1", 49)})
	if len(res.Matches) != 1 {
		t.Errorf("after the writes settle the index holds the last content: %+v", res)
	}
}
