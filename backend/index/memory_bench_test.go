package index

import (
	"context"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/search"
)

// BenchmarkBuildMemory opens the corpus as a long-lived face does (watcher, lists, text cache at its default
// budget, the soft memory limit of a long-lived process), makes one search, and waits for the trigram build it
// starts; it reports the build's time, the merge of its segments' time, the bytes each wrote and the index's size
// on disk, the process's resident memory at its peak while building and after, and the live heap after.
// ROOTED_SEARCH_CORPUS names a big tree (bench/monorepo's corpus); ROOTED_HEAP_PROFILE, when set, is where a heap
// profile is written halfway through the build.
func BenchmarkBuildMemory(b *testing.B) {
	r := benchCorpus(b)
	var ixs Indexes
	ixs.Limit = &MemoryLimit{}
	ixs.SetBudget(r, 0)
	b.Cleanup(func() { ixs.SetBudget(r, 0) })
	for range b.N {
		runtime.GC()
		x, err := NewIndex(r, benchCorpusPath(), Options{CacheDir: b.TempDir()})
		if err != nil {
			b.Fatal(err)
		}
		x.tri.noMerge = os.Getenv("ROOTED_BENCH_NO_MERGE") != "" // the segments as the build wrote them
		var peak float64
		var once sync.Once
		stop := make(chan struct{})
		sampled := make(chan struct{})
		go func() {
			defer close(sampled)
			for {
				peak = max(peak, residentMiB())
				if p := os.Getenv("ROOTED_HEAP_PROFILE"); p != "" && x.tri.read.Load() > int64(profileAt()) {
					once.Do(func() {
						f, err := os.Create(p)
						if err == nil {
							runtime.GC()
							pprof.WriteHeapProfile(f)
							f.Close()
						}
					})
				}
				select {
				case <-stop:
					return
				case <-time.After(100 * time.Millisecond):
				}
			}
		}()
		start, wrote := time.Now(), writtenMiB()
		if _, err := search.Search(context.Background(), x, ".", search.Options{Query: "ErrShortWrite", Output: search.OutputCount}); err != nil {
			b.Fatal(err)
		}
		for {
			if _, _, st := x.Memory(); st.Ready {
				b.ReportMetric(float64(st.BuildMS), "build-ms")
				b.ReportMetric(writtenMiB()-wrote, "MiB-written-build")
				wrote = writtenMiB()
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		total := time.Since(start)
		waitMerged(b, x)
		_, _, st := x.Memory()
		b.ReportMetric(float64(st.MergeMS), "merge-ms")
		b.ReportMetric(writtenMiB()-wrote, "MiB-written-merge")
		b.ReportMetric(float64(st.DiskBytes)/(1<<20), "MiB-disk")
		b.ReportMetric(float64(st.Segments), "segments")
		time.Sleep(time.Second) // the build gives its garbage back as it ends
		close(stop)
		<-sampled
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		b.ReportMetric(peak, "MiB-peak-rss")
		b.ReportMetric(residentMiB(), "MiB-after-rss")
		b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "MiB-live-heap")
		b.ReportMetric(total.Seconds(), "s-to-ready")
		x.Close()
	}
}

// residentMiB is this process's resident set size, from /proc (0 where there is none).
func residentMiB() float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(data)) {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}

// writtenMiB is what this process has written so far (its segments, and little else while a build runs), from /proc
// (0 where there is none).
func writtenMiB() float64 {
	data, err := os.ReadFile("/proc/self/io")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(data)) {
		if rest, ok := strings.CutPrefix(line, "wchar:"); ok {
			n, _ := strconv.ParseFloat(strings.TrimSpace(rest), 64)
			return n / (1 << 20)
		}
	}
	return 0
}

// profileAt is how many files the build has read when the heap profile is written: $ROOTED_HEAP_PROFILE_AT, else
// 40,000.
func profileAt() int {
	if n, err := strconv.Atoi(os.Getenv("ROOTED_HEAP_PROFILE_AT")); err == nil {
		return n
	}
	return 40000
}
