package snapshot

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/files"
	"github.com/rooted-dev/rooted/backend/sched"
	"github.com/rooted-dev/rooted/backend/search"
	"github.com/rooted-dev/rooted/backend/testtree"
)

// storm runs searches back to back in lane, one per CPU, over the search corpus, as an agent searching a second
// project does, until the returned function is called (which waits for them). It returns how many ran.
func storm(b *testing.B, lane *sched.Lane) (stop func() int) {
	r, _ := testtree.Corpus(b)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var mu sync.Mutex
	n := 0
	queries := []search.Options{
		{Query: "func", Output: search.OutputCount, Lane: lane},
		{Query: `func \(\w+ \*\w+\) Close`, Regex: true, Lane: lane},
		{Query: "ErrShortWrite", Lane: lane},
	}
	for w := range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := w; ctx.Err() == nil; i++ {
				if _, err := search.Search(ctx, search.DiskSource{Root: r}, ".", queries[i%len(queries)]); err == nil {
					mu.Lock()
					n++
					mu.Unlock()
				}
			}
		})
	}
	return func() int { cancel(); wg.Wait(); return n }
}

// BenchmarkTwoWorkspaces is two projects open in one process, on one scheduler: the edits of one (each a
// snapshot, then the write, as write_file does; the project tracked, as in the window), alone and while the other
// project's agent searches without pause; and the first snapshot of a project just opened (background work),
// alone and beside the other's searches. The edit's figure beside the storm over its alone figure is the cost
// of the other workspace's work: the CPUs are shared, the scheduler adds nothing (its lanes never make one
// workspace wait for another's searches).
func BenchmarkTwoWorkspaces(b *testing.B) {
	s := sched.New()
	for _, beside := range []bool{false, true} {
		name := "alone"
		if beside {
			name = "beside-search-storm"
		}
		b.Run("edit/"+name, func(b *testing.B) {
			dir, root := benchProject(b)
			lane := s.Lane("edits")
			defer lane.Close()
			repo, err := Open(root, dir, b.TempDir(), Options{Lane: lane})
			if err != nil {
				b.Fatal(err)
			}
			defer repo.Stop()
			repo.Track(true)
			if _, err := repo.Take(context.Background(), "first"); err != nil {
				b.Fatal(err)
			}
			if beside {
				other := s.Lane("searches")
				defer other.Close()
				stop := storm(b, other)
				defer func() { b.ReportMetric(float64(stop())/b.Elapsed().Seconds(), "searches/s") }()
			}
			target := filepath.Join("strings", "strings.go")
			var times []time.Duration
			i := 0
			for b.Loop() {
				t0 := time.Now()
				if _, err := repo.TakeFor(context.Background(), "Backup before file mod: strings/strings.go", []string{"strings/strings.go"}); err != nil {
					b.Fatal(err)
				}
				if _, err := files.Write(root, target, fmt.Appendf(nil, "package strings\n\n// edit %d\n", i), nil); err != nil {
					b.Fatal(err)
				}
				repo.MarkDirty("strings/strings.go")
				times = append(times, time.Since(t0))
				i++
			}
			slices.Sort(times)
			b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "median-ms/edit")
			b.ReportMetric(float64(times[len(times)*95/100].Microseconds())/1000, "p95-ms/edit")
		})
	}
	// The first snapshot of a project just opened, alone, beside another workspace's search storm, and beside a
	// storm in its own workspace: what every workspace got before lanes, when any search of the process paused
	// every snapshot's gits (it yields, at most 5 s at a time).
	for _, beside := range []string{"alone", "beside-search-storm", "beside-search-storm-same-workspace"} {
		b.Run("first-snapshot/"+beside, func(b *testing.B) {
			dir, root := benchProject(b)
			lane := s.Lane("opened")
			defer lane.Close()
			if beside != "alone" {
				other := s.Lane("searches")
				defer other.Close()
				if beside == "beside-search-storm-same-workspace" {
					other = lane
				}
				stop := storm(b, other)
				defer func() { b.ReportMetric(float64(stop())/b.Elapsed().Seconds(), "searches/s") }()
			}
			var took time.Duration
			for b.Loop() {
				b.StopTimer()
				repo, err := Open(root, dir, b.TempDir(), Options{Lane: lane})
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				start := time.Now()
				if _, err := repo.TakeAfter(Background(context.Background()), 0, "Project opened"); err != nil {
					b.Fatal(err)
				}
				took = time.Since(start)
				b.StopTimer()
				repo.Stop()
				b.StartTimer()
			}
			b.ReportMetric(took.Seconds(), "first-snapshot-s")
		})
	}
}
