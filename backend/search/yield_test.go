package search

import (
	"context"
	"fmt"
	"maps"
	"path"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/sched"
	"github.com/rooted-dev/rooted/backend/testtree"
	"github.com/rooted-dev/rooted/backend/walk"
)

// gateSource is a source whose walk waits until gate is closed: a search of it runs until then.
type gateSource struct {
	started chan struct{}
	once    *sync.Once
	gate    chan struct{}
}

func (s gateSource) Walk(context.Context, string, WalkOptions, func(File) bool) error {
	s.once.Do(func() { close(s.started) })
	<-s.gate
	return nil
}

func (gateSource) Content(File) ([]byte, func(), error) { return nil, func() {}, ErrNotSearchable }

// runSearch starts a search in lane and returns once it runs; release ends it and waits for it.
func runSearch(t *testing.T, lane *sched.Lane) (release func()) {
	t.Helper()
	src := gateSource{started: make(chan struct{}), once: &sync.Once{}, gate: make(chan struct{})}
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		if _, err := Search(context.Background(), src, ".", Options{Query: "x", Lane: lane}); err != nil {
			t.Error(err)
		}
	}()
	<-src.started
	var once sync.Once
	return func() { once.Do(func() { close(src.gate); <-ended }) }
}

// A search counts as foreground work of its lane for as long as it runs, and of no other lane; and, for the
// index's work, which has no lane yet, of the process. Not parallel: Busy counts every search of the process.
func TestSearchHoldsItsLane(t *testing.T) {
	s := sched.New()
	a, b := s.Lane("a"), s.Lane("b")
	release := runSearch(t, a)
	if !a.Busy() || b.Busy() || !Busy() {
		t.Fatalf("during a search in a: a busy %v, b busy %v, process busy %v", a.Busy(), b.Busy(), Busy())
	}
	release()
	if a.Busy() || Busy() {
		t.Fatal("the search ended but still counts")
	}
	release = runSearch(t, nil) // no lane: the process only
	if a.Busy() || b.Busy() || !Busy() {
		t.Fatalf("a search without a lane: a busy %v, b busy %v, process busy %v", a.Busy(), b.Busy(), Busy())
	}
	release()
}

// A Yielder without a lane waits for any search of the process (the index's build); with one, for the searches of
// that lane only. Waits end when the search does. Not parallel: Busy counts every search of the process.
func TestYielderLanes(t *testing.T) {
	s := sched.New()
	a, b := s.Lane("a"), s.Lane("b")
	for _, tc := range []struct {
		name      string
		lane      *sched.Lane
		searchIn  *sched.Lane
		wantWaits bool
	}{
		{"process, search in a lane", nil, a, true},
		{"process, search without lane", nil, nil, true},
		{"own lane", a, a, true},
		{"other lane", a, b, false},
		{"lane, search without lane", a, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			release := runSearch(t, tc.searchIn)
			defer release()
			y := &Yielder{Lane: tc.lane, MaxWait: time.Hour}
			returned := make(chan struct{})
			go func() { y.Wait(context.Background(), nil); close(returned) }()
			if tc.wantWaits {
				for !y.Waiting() {
					select {
					case <-returned:
						t.Fatal("Wait returned while a search it yields to runs")
					case <-time.After(time.Millisecond):
					}
				}
				release()
			}
			select {
			case <-returned:
			case <-time.After(30 * time.Second):
				t.Fatal("Wait never returned")
			}
		})
	}
}

// Aside takes a search out of the process's count until back, so work it waits for does not wait for it.
func TestAside(t *testing.T) {
	release := Hold()
	defer release()
	back := Aside()
	if Busy() {
		t.Fatal("a search set aside still counts")
	}
	back()
	if !Busy() {
		t.Fatal("the search came back but does not count")
	}
}

// A search whose lane has a single slot (one CPU, or its share beside busy workspaces) still finishes, its walk
// and workers taking turns, and finds what a search without a lane finds.
func TestSearchWithinItsShare(t *testing.T) {
	files := map[string]string{}
	for i := range 500 {
		files[fmt.Sprintf("d%d/f%d.txt", i%7, i)] = fmt.Sprintf("line\nneedle %d\n", i)
	}
	root, _ := testtree.Root(t, files)
	want, err := Search(context.Background(), DiskSource{Root: root}, ".", Options{Query: "needle", Output: OutputCount})
	if err != nil || want.Total != 500 {
		t.Fatalf("without a lane: %+v %v", want, err)
	}
	for _, tc := range []struct {
		name  string
		cpus  int
		other bool // another workspace searches: the share halves
	}{
		{"one cpu", 1, false},
		{"two cpus, another workspace busy", 2, true},
		{"four cpus alone", 4, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := sched.NewWithCPUs(tc.cpus)
			if tc.other {
				defer s.Lane("other").Search()()
			}
			for _, out := range []string{OutputCount, OutputContent, OutputFiles} {
				got, err := Search(context.Background(), DiskSource{Root: root}, ".", Options{Query: "needle", Output: out, Limit: 1000, Lane: s.Lane("w")})
				if err != nil || got.Total != want.Total || got.FilesSearched != want.FilesSearched {
					t.Fatalf("%s: %+v %v, want total %d of %d files", out, got.Total, err, want.Total, want.FilesSearched)
				}
			}
		})
	}
}

// A search pauses while another workspace's edit runs, and goes on once it ends, finding what it would have found;
// it does not pause for an edit of its own workspace. Both where it walks the disk (the walk's read-ahead pauses
// too) and where its files come from a list in memory (an index's), so the pause is the search's own.
func TestSearchPausesForAnotherWorkspacesEdit(t *testing.T) {
	files := map[string]string{}
	for i := range 300 {
		files[fmt.Sprintf("d%d/f%d.txt", i%7, i)] = fmt.Sprintf("line\nneedle %d\n", i)
	}
	root, _ := testtree.Root(t, files)
	for _, tc := range []struct {
		name string
		src  Source
	}{
		{"disk", DiskSource{Root: root}},
		{"memory", memorySource(files)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want, err := Search(context.Background(), tc.src, ".", Options{Query: "needle", Output: OutputCount})
			if err != nil || want.Total != 300 {
				t.Fatalf("without a lane: %+v %v", want, err)
			}
			s := sched.New().WithMaxPace(time.Hour)
			a, b := s.Lane("a"), s.Lane("b")
			search := func(src Source) <-chan Result {
				got := make(chan Result, 1)
				go func() {
					res, err := Search(context.Background(), src, ".", Options{Query: "needle", Output: OutputCount, Lane: a})
					if err != nil {
						t.Error(err)
					}
					got <- res
				}()
				return got
			}

			endOwn := a.Foreground() // an edit in the search's own workspace: no pause
			if got := <-search(tc.src); got.Total != want.Total {
				t.Fatalf("beside its own edit: total %d, want %d", got.Total, want.Total)
			}
			endOwn()

			endEdit := b.Foreground()
			src := &countingSource{Source: tc.src}
			got := search(src)
			for !a.Pausing() {
				select {
				case res := <-got:
					t.Fatalf("the search ran to its end (%d files) while another workspace's edit ran", res.FilesSearched)
				case <-time.After(time.Millisecond):
				}
			}
			read := src.read.Load()
			time.Sleep(20 * time.Millisecond)
			if now := src.read.Load(); now > read+int64(runtime.GOMAXPROCS(0)) {
				t.Fatalf("the search read %d files while paused", now-read) // each worker may finish the file it had
			}
			endEdit()
			select {
			case res := <-got:
				if res.Total != want.Total || res.FilesSearched != want.FilesSearched {
					t.Fatalf("after the pause: %+v, want %+v", res, want)
				}
			case <-time.After(30 * time.Second):
				t.Fatal("the search did not go on after the edit ended")
			}
		})
	}
}

// memorySource is files listed and read from memory, in path order, as an index's lists are.
type memorySource map[string]string

func (m memorySource) Walk(ctx context.Context, _ string, _ WalkOptions, emit func(File) bool) error {
	for _, rel := range slices.Sorted(maps.Keys(m)) {
		if ctx.Err() != nil || !emit(File{Entry: walk.Entry{Rel: rel, Name: path.Base(rel)}}) {
			break
		}
	}
	return nil
}

func (m memorySource) Content(f File) ([]byte, func(), error) {
	return []byte(m[f.Rel]), func() {}, nil
}

// countingSource counts the files whose content a search reads.
type countingSource struct {
	Source
	read atomic.Int64
}

func (c *countingSource) Content(f File) ([]byte, func(), error) {
	c.read.Add(1)
	return c.Source.Content(f)
}
