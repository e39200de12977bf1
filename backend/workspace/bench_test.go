package workspace

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkEditBesideSearchStorm measures what one workspace's work costs another in the same process: the latency
// of an edit with its snapshot (write_file, backed up first) in workspace A, alone and while workspace B runs a
// storm of searches (one searcher per CPU, back to back; ROOTED_BENCH_SEARCHERS sets how many). The two are
// measured in alternating rounds of ROOTED_BENCH_ROUND edits (default 20), so that the load other processes put
// on the machine weighs on both alike. It reports both medians and their ratio (storm/alone; 1.0 is no cost),
// the ratio of the 90th percentiles, and the searches B completed a second while A edited. ROOTED_BENCH_FILES sets B's size (default 4000 files of
// 4 KiB).
func BenchmarkEditBesideSearchStorm(b *testing.B) {
	set := &Set{Options: Options{Live: true}}
	b.Cleanup(set.CloseAll)
	a := benchOpen(b, set, benchTree(b, 200))
	other := benchOpen(b, set, benchTree(b, envInt("ROOTED_BENCH_FILES", 4000)))
	if _, e := a.Registry().Call(context.Background(), "read_file", []byte(`{"path": "f0.txt"}`)); e != nil {
		b.Fatal(e)
	}
	edits := 0
	edit := func() time.Duration {
		edits++
		args := fmt.Sprintf(`{"path": "f0.txt", "content": "edit %d\n"}`, edits)
		start := time.Now()
		if _, e := a.Registry().Call(context.Background(), "write_file", []byte(args)); e != nil {
			b.Fatal(e)
		}
		return time.Since(start)
	}
	for range 5 { // warm: the first snapshot and the index are done
		edit()
	}
	st := startStorm(b, other, envInt("ROOTED_BENCH_SEARCHERS", runtime.NumCPU()))
	round := max(1, envInt("ROOTED_BENCH_ROUND", 20))
	b.ResetTimer()
	alone := make([]time.Duration, 0, b.N)
	storm := make([]time.Duration, 0, b.N)
	var stormTime time.Duration
	searches := 0
	for len(storm) < b.N {
		st.hold()
		for i := 0; i < round && len(alone) < b.N; i++ {
			alone = append(alone, edit())
		}
		st.let()
		time.Sleep(50 * time.Millisecond) // the storm under way
		began, before := time.Now(), st.done()
		for i := 0; i < round && len(storm) < b.N; i++ {
			storm = append(storm, edit())
		}
		stormTime += time.Since(began)
		searches += st.done() - before
	}
	b.StopTimer()
	st.stop()
	ma, ms := median(alone), median(storm)
	b.ReportMetric(float64(ma.Microseconds())/1000, "alone-ms")
	b.ReportMetric(float64(ms.Microseconds())/1000, "storm-ms")
	b.ReportMetric(float64(ms)/float64(ma), "ratio")
	b.ReportMetric(float64(quantile(storm, 0.9))/float64(quantile(alone, 0.9)), "p90-ratio")
	b.ReportMetric(float64(searches)/stormTime.Seconds(), "searches/s")
}

// storm is searchers running searches back to back in a workspace, which hold lets finish and then stops until
// let.
type storm struct {
	gate     sync.RWMutex // each search holds it to read; hold takes it to write
	count    atomic.Int64
	cancel   context.CancelFunc
	wg       sync.WaitGroup
	released bool
}

func startStorm(b *testing.B, w *Workspace, searchers int) *storm {
	ctx, cancel := context.WithCancel(context.Background())
	st := &storm{cancel: cancel, released: true}
	for i := range searchers {
		st.wg.Go(func() {
			queries := []string{`{"query": "needle%d"}`, `{"query": "ha[yz]+stack%d", "regex": true}`, `{"query": "LINE %d", "case_insensitive": true}`}
			for j := 0; ctx.Err() == nil; j++ {
				q := fmt.Sprintf(queries[j%len(queries)], (i+j)%97)
				st.gate.RLock()
				_, e := w.Registry().Call(ctx, "search_files", []byte(q))
				st.gate.RUnlock()
				if e != nil && ctx.Err() == nil {
					b.Error(e)
					return
				}
				st.count.Add(1)
			}
		})
	}
	return st
}

// hold waits for the searches running to end, and starts no more until let.
func (st *storm) hold() {
	if st.released {
		st.gate.Lock()
		st.released = false
	}
}

// let lets the searches run again.
func (st *storm) let() {
	if !st.released {
		st.gate.Unlock()
		st.released = true
	}
}

func (st *storm) done() int { return int(st.count.Load()) }

func (st *storm) stop() {
	st.let()
	st.cancel()
	st.wg.Wait()
}

// envInt is the integer in the environment variable name, or def.
func envInt(name string, def int) int {
	if s := os.Getenv(name); s != "" {
		fmt.Sscan(s, &def)
	}
	return def
}

func median(d []time.Duration) time.Duration { return quantile(d, 0.5) }

// quantile is the q-quantile of d (0 <= q < 1).
func quantile(d []time.Duration, q float64) time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[int(q*float64(len(s)))]
}

// benchTree writes n files of about 4 KiB of text to search through.
func benchTree(b *testing.B, n int) string {
	dir := b.TempDir()
	var line strings.Builder
	for i := range 64 {
		fmt.Fprintf(&line, "LINE %d haystack haystack haystack haystack haystack %d\n", i, i*7)
	}
	body := line.String()
	for i := range n {
		sub := filepath.Join(dir, fmt.Sprintf("d%02d", i%50))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			b.Fatal(err)
		}
		text := body
		if i%40 == 0 {
			text += fmt.Sprintf("needle%d\n", i%97)
		}
		if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("f%d.txt", i)), []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "f0.txt"), []byte("start\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	return dir
}

// benchOpen opens dir and waits until it is prepared and its first snapshot is taken.
func benchOpen(b *testing.B, set *Set, dir string) *Workspace {
	w, _, err := set.Open(context.Background(), dir)
	if err != nil {
		b.Fatal(err)
	}
	if err := w.WaitReady(context.Background()); err != nil {
		b.Fatal(err)
	}
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(50 * time.Millisecond) {
		raw, e := w.Registry().Call(context.Background(), "list_snapshots", []byte(`{}`))
		if e == nil && strings.Contains(string(raw), `"id"`) {
			return w
		}
		if time.Now().After(deadline) {
			b.Fatalf("no first snapshot of %s", dir)
		}
	}
}
