package search

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/testtree"

	"github.com/boyter/gocodewalker"
)

func benchSearch(b *testing.B, opt Options) {
	r, _ := testtree.Corpus(b)
	for b.Loop() {
		if _, err := Search(context.Background(), DiskSource{Root: r}, ".", opt); err != nil {
			b.Fatal(err)
		}
	}
}

// The cases of bench/search.sh, in process: how the window's agent calls search, with no process to start.

const benchRegex = `func \(\w+ \*\w+\) Close`

func BenchmarkFirst100CommonLiteral(b *testing.B) { benchSearch(b, Options{Query: "func"}) }

func BenchmarkFirst100RareLiteral(b *testing.B) { benchSearch(b, Options{Query: "ErrShortWrite"}) }

func BenchmarkFirst100Regex(b *testing.B) { benchSearch(b, Options{Query: benchRegex, Regex: true}) }

func BenchmarkCountCommonLiteral(b *testing.B) {
	benchSearch(b, Options{Query: "func", Output: OutputCount, Limit: 1})
}

func BenchmarkCountRareLiteral(b *testing.B) {
	benchSearch(b, Options{Query: "ErrShortWrite", Output: OutputCount, Limit: 1})
}

func BenchmarkCountRegex(b *testing.B) {
	benchSearch(b, Options{Query: benchRegex, Regex: true, Output: OutputCount, Limit: 1})
}

// BenchmarkCancel reports how long a full search of the corpus takes to return after its context is cancelled
// (ms-to-stop); the search is cancelled 10 ms in, while it is busy.
func BenchmarkCancel(b *testing.B) {
	r, _ := testtree.Corpus(b)
	var total time.Duration
	for b.Loop() {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan time.Time, 1)
		go func() {
			Search(ctx, DiskSource{Root: r}, ".", Options{Query: "func", Output: OutputCount})
			done <- time.Now()
		}()
		time.Sleep(10 * time.Millisecond)
		start := time.Now()
		cancel()
		total += (<-done).Sub(start)
	}
	b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms-to-stop")
}

// BenchmarkWalkList lists the corpus's searchable files (no reading), with Rooted's walk and, for comparison, with
// gocodewalker's own FileWalker, which Rooted takes its gitignore engine from but does not walk with: it opens
// paths (not through the project's os.Root), stats each match, and keeps every path it matched in a process-wide
// cache. The heap it leaves behind after the walk is reported as retained-B.
func BenchmarkWalkList(b *testing.B) {
	r, dir := testtree.Corpus(b)
	retained := func(b *testing.B, before runtime.MemStats) {
		var after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/float64(b.N), "retained-B")
	}
	b.Run("rooted", func(b *testing.B) {
		var before runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		n := 0
		for b.Loop() {
			n = 0
			if err := walkFiles(context.Background(), r, "", WalkOptions{}, func(f File) bool { n++; f.Release(); return true }); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(n), "files")
		retained(b, before)
	})
	b.Run("gocodewalker", func(b *testing.B) {
		var before runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		n := 0
		for b.Loop() {
			n = 0
			q := make(chan *gocodewalker.File, 1024)
			w := gocodewalker.NewFileWalker(dir, q)
			w.ExcludeDirectory = []string{".git"}
			done := make(chan error, 1)
			go func() { done <- w.Start() }()
			for range q {
				n++
			}
			if err := <-done; err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(n), "files")
		retained(b, before)
	})
}
