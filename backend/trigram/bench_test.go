package trigram

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/rooted-dev/rooted/backend/testcorpus"
)

// BenchmarkBuild indexes the Go source tree's text files (read into memory first, so this times the indexing,
// not the reading) into segments of about 2M (trigram, file) pairs, as the index's build does, and writes them.
// It reports the throughput in text and the builder's heap at its largest.
func BenchmarkBuild(b *testing.B) {
	var files [][]byte
	var names []string
	var size int64
	filepath.WalkDir(testcorpus.GoSrc(), func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil || bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0 || len(data) > 4<<20 {
			return nil
		}
		files, names = append(files, data), append(names, p)
		size += int64(len(data))
		return nil
	})
	if len(files) == 0 {
		b.Skip("no Go source tree")
	}
	dir := b.TempDir()
	b.SetBytes(size)
	var peak uint64
	var pairs int
	for b.Loop() {
		var bl Builder
		seg := 0
		flush := func() {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
			pairs += bl.Pairs()
			if err := bl.Write(filepath.Join(dir, "seg")); err != nil {
				b.Fatal(err)
			}
			seg++
			bl.Reset()
		}
		for i, data := range files {
			bl.Add(names[i], data)
			if bl.Pairs() >= 2<<20 {
				flush()
			}
		}
		flush()
	}
	b.ReportMetric(float64(peak)/(1<<20), "MiB-heap-peak")
	b.ReportMetric(float64(pairs)/float64(b.N), "pairs")
}
