package index

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/search"
)

// A reopened project's index serves searches before its check against the tree has ended, and they are a full
// scan's: a file changed, created or removed while the project was closed is found or not found as it is now,
// whether the check has reached it or not, and so is a file changed during the check. The check is held after its
// first files (.gitignore, bin.dat and most of d0) so that searches meet both kinds.
func TestSearchesDuringTheCheckOfAReopenedIndex(t *testing.T) {
	t.Parallel()
	r, dir, cache, files := keptProject(t, map[string]string{"d4/zbin.dat": "needle\x00binary too"})

	// While closed, in the part the check reaches before it is held (d0, bin.dat) and in the part it does not
	// (d2, d3, d4): files rewritten at their old size and modification time, grown, created, removed, binary made
	// text, an ignored file un-ignored.
	write := func(rel, text string) {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(rel)), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rewriteAtSameTimes(t, dir, "d0/f000.txt", strings.Replace(files["d0/f000.txt"], "line", "nedl", 1))
	rewriteAtSameTimes(t, dir, "d2/f002.txt", strings.Replace(files["d2/f002.txt"], "line", "nedl", 1))
	write("d0/f005.txt", "now a needle here\n")
	write("d3/f003.txt", "now a needle here\n")
	write("d4/new.txt", "a new needle\n")
	os.Remove(filepath.Join(dir, "d1", "f001.txt"))
	write("bin.dat", "needle, text now\n")
	write("d4/zbin.dat", "needle, text now too\n")
	write(".gitignore", "# nothing\n")

	queries := []search.Options{
		{Query: "zzz-not-there", Output: search.OutputCount},
		{Query: "needle", Output: search.OutputFiles, Limit: 1000},
		{Query: "needle", Output: search.OutputContent, Limit: 1000},
		{Query: "nedl", Output: search.OutputCount},
		{Query: "line", Output: search.OutputCount, Limit: 1000},
		{Query: "ne+dle", Regex: true, Output: search.OutputFiles, Limit: 1000},
		{Query: "needle", Output: search.OutputFiles, Glob: mustGlob(t, "d4/**"), Limit: 1000},
	}
	// compare runs the queries through src and the disk; read is how many files src read so far. The changed
	// files, read by a literal in no file: the eight changed while closed, two changed while open, .gitignore and
	// skip.later.
	compare := func(when string, src search.Source, read func() int64) {
		t.Helper()
		for _, q := range queries {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			before := read()
			got, err1 := search.Search(ctx, src, "", q)
			cancel()
			want, err2 := search.Search(context.Background(), search.DiskSource{Root: r}, "", q)
			if err1 != nil || err2 != nil || !reflect.DeepEqual(got, want) {
				t.Errorf("%s, query %+v:\nindex %+v (%v)\nfull scan %+v (%v)", when, q, got, err1, want, err2)
			}
			if n := read() - before; q.Query == "zzz-not-there" && n > 11 {
				t.Errorf("%s: a literal in no file read %d files", when, n)
			}
		}
	}

	// Before the index has started (its watcher's first walk), the index kept, loaded, serves searches.
	early := &countingSaved{savedSource: savedSource{DiskSource: search.DiskSource{Root: r}, tri: newNarrower(r, dir, cache)}}
	compare("before the index has started", early, early.n.Load)
	early.tri.close()

	reached, gate := make(chan int, 1), make(chan struct{})
	hooked := false
	y, err := NewIndex(r, dir, Options{CacheDir: cache, checkEvery: 50, checked: func(files int) {
		if !hooked {
			hooked = true
			reached <- files
			<-gate
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer y.Close()
	held := true
	defer func() {
		if held {
			close(gate)
		}
	}()
	select {
	case n := <-reached:
		if n != 50 {
			t.Fatalf("the check was held after %d files", n)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the check did not begin")
	}

	// And while the check is held: a file it has checked and one it has not, changed; the watcher reports them.
	write("d0/f010.txt", "needle while open\n")
	write("d4/f009.txt", "needle while open\n")
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		y.tri.mu.Lock()
		seen := y.tri.dirty["d0/f010.txt"] && y.tri.dirty["d4/f009.txt"]
		y.tri.mu.Unlock()
		if seen {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the watcher did not report the changes")
		}
	}

	// Twice: the first walks the disk (no list in memory yet during the check), the second the list it left.
	c := &countingIndex{Index: y}
	for round := range 2 {
		compare(fmt.Sprintf("during the check, round %d", round), c, c.n.Load)
	}
	if _, _, st := y.Memory(); st.Ready || !st.Reopened {
		t.Fatalf("during the check: %+v, want the index kept and not yet checked", st)
	}
	close(gate)
	held = false
	waitFor(t, "the check to end", func() bool { _, _, st := y.Memory(); return st.Ready })
	for round := range 2 {
		compare(fmt.Sprintf("after the check, round %d", round), c, c.n.Load)
	}
	// The files changed while closed or during the check are noted, and so is the one removed: the next save
	// marks them unknown.
	y.tri.mu.Lock()
	for _, rel := range []string{"d0/f000.txt", "d2/f002.txt", "d3/f003.txt", "d1/f001.txt", "bin.dat", "d4/zbin.dat", "d0/f010.txt", "d4/f009.txt"} {
		if !y.tri.dirty[rel] {
			t.Errorf("after the check, %s is not noted as changed", rel)
		}
	}
	y.tri.mu.Unlock()
}

// countingSaved counts the files a savedSource reads.
type countingSaved struct {
	savedSource
	n atomic.Int64
}

func (c *countingSaved) Content(f search.File) ([]byte, func(), error) {
	c.n.Add(1)
	return c.savedSource.Content(f)
}

// waitFor polls done until it holds, for at most 30 s.
func waitFor(t *testing.T, what string, done func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !done(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited for %s", what)
		}
	}
}
