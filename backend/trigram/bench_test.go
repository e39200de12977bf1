package trigram

import (
	"bytes"
	"fmt"
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
	files, names, size := goSource(b)
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

// goSource reads the Go source tree's text files.
func goSource(b *testing.B) (files [][]byte, names []string, size int64) {
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
	return files, names, size
}

// BenchmarkMerge merges the segments of the Go source tree's text (about 1M pairs each, as a build on a
// two-core machine writes them) into one, as the index does once a build is in. Throughput is in text indexed.
func BenchmarkMerge(b *testing.B) {
	dir := b.TempDir()
	segs, size := goSourceSegments(b, dir)
	b.SetBytes(size)
	for b.Loop() {
		if err := Merge(filepath.Join(dir, "merged"), segs, func() {}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(segs)), "segments")
}

// goSourceSegments writes the Go source tree's text into dir as segments of about 1M pairs each, as a build on a
// two-core machine writes them, and opens them until b ends. size is the text's.
func goSourceSegments(b *testing.B, dir string) (segs []*Segment, size int64) {
	files, names, size := goSource(b)
	var bl Builder
	flush := func() {
		path := filepath.Join(dir, fmt.Sprintf("seg%d", len(segs)))
		segs = append(segs, writeSegmentAt(b, &bl, path))
		bl.Reset()
	}
	for i, data := range files {
		bl.Add(names[i], data)
		if bl.Pairs() >= 1<<20 {
			flush()
		}
	}
	flush()
	return segs, size
}
