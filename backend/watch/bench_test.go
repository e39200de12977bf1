package watch

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/testcorpus"
)

// BenchmarkSetupGoTree measures starting a watcher on the Go source tree (about 800 directories): the walk, the
// ignore rules and one inotify watch per directory.
func BenchmarkSetupGoTree(b *testing.B) {
	dir := testcorpus.GoSrc()
	r, err := os.OpenRoot(dir)
	if err != nil {
		b.Skip("no Go source tree:", err)
	}
	defer r.Close()
	var watched int
	for b.Loop() {
		w, err := New(r, dir, Options{})
		if err != nil {
			b.Fatal(err)
		}
		st := w.Status()
		if st.Degraded {
			b.Fatalf("degraded: %s", st.Reason)
		}
		watched = st.Watched
		w.Close()
	}
	b.ReportMetric(float64(watched), "dirs")
}

// BenchmarkWriteToEvent measures the time from a write to its debounced batch with the default settings (the
// window's; the batch is what it forwards), in a tree of 200 directories, reporting the median and the 95th
// percentile. The default quiet period (50 ms) is most of it, by design: an editor's save is several events.
func BenchmarkWriteToEvent(b *testing.B) {
	dir := b.TempDir()
	for i := range 200 {
		os.MkdirAll(filepath.Join(dir, fmt.Sprintf("pkg%03d", i), "internal"), 0o755)
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	w, err := New(r, dir, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	var lat []time.Duration
	i := 0
	for b.Loop() {
		rel := fmt.Sprintf("pkg%03d/internal/f%d.go", i%200, i)
		i++
		start := time.Now()
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(rel)), []byte("package internal\n"), 0o644); err != nil {
			b.Fatal(err)
		}
	wait:
		for batch := range w.Events() {
			for _, e := range batch {
				if e.Path == rel {
					break wait
				}
			}
		}
		lat = append(lat, time.Since(start))
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*95/100].Microseconds())/1000, "p95-ms")
}
