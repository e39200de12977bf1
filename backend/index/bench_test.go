package index

import (
	"cmp"
	"context"
	"os"
	"runtime"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/search"
	"github.com/rooted-dev/rooted/backend/testcorpus"
	"github.com/rooted-dev/rooted/backend/testcpu"
	"github.com/rooted-dev/rooted/backend/testtree"
)

func benchCorpusPath() string { return testcorpus.Search() }

func benchCorpus(b *testing.B) *os.Root {
	r, _ := testtree.Corpus(b)
	return r
}

const benchRegex = `func \(\w+ \*\w+\) Close`

// Repeated searches through a warm Index, as an agent searching an unchanged tree makes them, once the trigram
// index is in and its segments merged ($ROOTED_BENCH_NO_MERGE set: as the build wrote them;
// $ROOTED_BENCH_PER_FILE set: narrowed by asking every file of the list, as before the candidate walk;
// $ROOTED_BENCH_CACHE: where the trigram index is kept, so that a run reopens the index an earlier one built,
// which on a 460k-file corpus saves minutes a benchmark).
func benchIndexed(b *testing.B, opts ...search.Options) {
	r := benchCorpus(b)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	cache := os.Getenv("ROOTED_BENCH_CACHE")
	if cache == "" {
		cache = b.TempDir()
	}
	x, err := NewIndex(r, benchCorpusPath(), Options{CacheDir: cache})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { x.Close() })
	x.tri.noMerge = os.Getenv("ROOTED_BENCH_NO_MERGE") != "" // the segments as the build wrote them
	x.perFile = os.Getenv("ROOTED_BENCH_PER_FILE") != ""     // every file of the list asked its verdict, no candidate walk
	for _, warm := range []search.Options{{Query: "x", Output: search.OutputCount}, {Query: "x", Output: search.OutputCount, IncludeHidden: true}} {
		if _, err := search.Search(context.Background(), x, ".", warm); err != nil {
			b.Fatal(err)
		}
	}
	// The trigram index is built in the background after the first search (the warm-up above asked for it);
	// repeated searches use it. Searching meanwhile would only make the build wait.
	for deadline := time.Now().Add(5 * time.Minute); ; time.Sleep(50 * time.Millisecond) {
		if _, _, st := x.Memory(); st.Ready || time.Now().After(deadline) {
			break
		}
	}
	waitMerged(b, x) // steady state: the build's segments merged into one
	runtime.GC()
	runtime.ReadMemStats(&after)
	if p := os.Getenv("ROOTED_BENCH_CPUPROFILE"); p != "" {
		// The steady state alone: -cpuprofile would also hold the warm-up scans and the build.
		f, err := os.Create(p)
		if err != nil {
			b.Fatal(err)
		}
		pprof.StartCPUProfile(f)
		defer func() { pprof.StopCPUProfile(); f.Close() }()
	}
	b.ResetTimer()
	cpu := testcpu.Start()
	for i := 0; b.Loop(); i++ {
		if _, err := search.Search(context.Background(), x, ".", opts[i%len(opts)]); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	// cpu-ms/op is the CPU a search took, all threads: on a machine shared with other work its wall time follows the
	// share of the cores it was given, its CPU much less.
	cpu.Report(b)
	// MiB-text is the text held in memory; MiB-heap what the index costs in all (lists, maps, watcher); MiB-disk
	// the trigram index on disk (mapped, not held).
	cached, _, st := x.Memory()
	b.ReportMetric(float64(cached)/(1<<20), "MiB-text")
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/(1<<20), "MiB-heap")
	b.ReportMetric(float64(st.DiskBytes)/(1<<20), "MiB-disk")
	b.ReportMetric(float64(st.Segments), "segments")
}

func BenchmarkIndexedFirst100CommonLiteral(b *testing.B) {
	benchIndexed(b, search.Options{Query: "func"})
}

func BenchmarkIndexedFirst100RareLiteral(b *testing.B) {
	benchIndexed(b, search.Options{Query: "ErrShortWrite"})
}

func BenchmarkIndexedFirst100Regex(b *testing.B) {
	benchIndexed(b, search.Options{Query: benchRegex, Regex: true})
}

func BenchmarkIndexedCountCommonLiteral(b *testing.B) {
	benchIndexed(b, search.Options{Query: "func", Output: search.OutputCount, Limit: 1})
}

func BenchmarkIndexedCountAbsentLiteral(b *testing.B) {
	benchIndexed(b, search.Options{Query: "zzzNotInAnyFile", Output: search.OutputCount, Limit: 1})
}

func BenchmarkIndexedCountRareLiteral(b *testing.B) {
	benchIndexed(b, search.Options{Query: "ErrShortWrite", Output: search.OutputCount, Limit: 1})
}

// BenchmarkIndexedCountRareLiterals counts ten rare literals in turn, as bench/monorepo's steady state does: files
// they share stay in the text cache, each one's own are read.
func BenchmarkIndexedCountRareLiterals(b *testing.B) {
	var opts []search.Options
	for _, q := range []string{"ErrShortWrite", "ErrShortBuffer", "ErrNoProgress", "ErrClosedPipe", "SectionReader", "NopCloser", "LimitedReader", "MultiWriter", "TeeReader", "ReadAtLeast"} {
		opts = append(opts, search.Options{Query: q, Output: search.OutputCount, Limit: 1})
	}
	benchIndexed(b, opts...)
}

func BenchmarkIndexedCountRegex(b *testing.B) {
	benchIndexed(b, search.Options{Query: benchRegex, Regex: true, Output: search.OutputCount, Limit: 1})
}

// BenchmarkCountAfterLimited times a full count through the index after two limited searches, before any
// trigram index is built (an agent's first searches of a project just opened); BenchmarkCountRareLiteral in
// package search is the same count of the disk, as a first search.
func BenchmarkCountAfterLimited(b *testing.B) {
	r := benchCorpus(b)
	b.StopTimer()
	for range b.N {
		x, err := NewIndex(r, benchCorpusPath(), Options{CacheDir: b.TempDir()})
		if err != nil {
			b.Fatal(err)
		}
		x.tri.dir = "" // no trigram build: this measures the time before it is in
		for _, q := range []string{"func", "Close"} {
			if _, err := search.Search(context.Background(), x, ".", search.Options{Query: q}); err != nil {
				b.Fatal(err)
			}
		}
		b.StartTimer()
		if _, err := search.Search(context.Background(), x, ".", search.Options{Query: "ErrShortWrite", Output: search.OutputCount, Limit: 1}); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		x.Close()
	}
}

// BenchmarkReopen times the second opening of a project whose trigram index was built at the first, as a window or
// MCP server opens it (Indexes): open-to-first-ms is from asking for the project's source to the end of a rare
// literal's full count, the first search, made at once; checked-ms is from the same moment until the index kept has
// been checked against the tree (a walk and a stat of every file). scan-ms is the same count of the disk, as a
// search made before any index is in, timed in the same run.
func BenchmarkReopen(b *testing.B) {
	r := benchCorpus(b)
	// Where Indexes keeps the trigram index; $ROOTED_BENCH_CACHE, when set, keeps it for the next run (minutes of
	// build saved on a 460k-file corpus).
	b.Setenv("XDG_CACHE_HOME", cmp.Or(os.Getenv("ROOTED_BENCH_CACHE"), b.TempDir()))
	first := &Indexes{}
	first.Source(r, benchCorpusPath())
	first.wait(r)
	// The build starts with the first search of the index.
	search.Search(context.Background(), first.Source(r, benchCorpusPath()), "", search.Options{Query: "x", Output: search.OutputCount})
	for deadline := time.Now().Add(10 * time.Minute); ; time.Sleep(50 * time.Millisecond) {
		if _, _, st, _ := first.Memory(r); st.Ready || time.Now().After(deadline) {
			break
		}
	}
	first.mu.Lock()
	x := first.idx
	first.mu.Unlock()
	waitMerged(b, x)
	first.Close()
	opt := search.Options{Query: "ErrShortWrite", Output: search.OutputCount, Limit: 1}
	var scan, open, checked time.Duration
	b.ResetTimer()
	for b.Loop() {
		s := &Indexes{}
		opened := time.Now()
		if _, err := search.Search(context.Background(), s.Source(r, benchCorpusPath()), "", opt); err != nil {
			b.Fatal(err)
		}
		open += time.Since(opened)
		b.StopTimer()
		for {
			if _, _, st, ok := s.Memory(r); ok && st.Ready {
				if !st.Reopened {
					b.Fatal("the index kept was not used")
				}
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
		checked += time.Since(opened)
		s.Close()
		start := time.Now()
		if _, err := search.Search(context.Background(), search.DiskSource{Root: r}, "", opt); err != nil {
			b.Fatal(err)
		}
		scan += time.Since(start)
		b.StartTimer()
	}
	b.ReportMetric(float64(open.Milliseconds())/float64(b.N), "open-to-first-ms")
	b.ReportMetric(float64(checked.Milliseconds())/float64(b.N), "checked-ms")
	b.ReportMetric(float64(scan.Milliseconds())/float64(b.N), "scan-ms")
}
