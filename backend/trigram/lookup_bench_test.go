package trigram

import (
	"path/filepath"
	"testing"

	"github.com/google/codesearch/index"
)

// lookupSegment is the Go source tree's text as one merged segment, as the index holds it once built.
func lookupSegment(b *testing.B) *Segment {
	dir := b.TempDir()
	segs, _ := goSourceSegments(b, dir)
	path := filepath.Join(dir, "merged")
	if err := Merge(path, segs, func() {}); err != nil {
		b.Fatal(err)
	}
	return openSegment(b, path)
}

// BenchmarkLookupRows finds the rows of 4096 trigrams spread over the 24-bit range (most held by no file) and of
// common ones: the table's part of every search. ns/op is one row.
func BenchmarkLookupRows(b *testing.B) {
	s := lookupSegment(b)
	tris := make([]uint32, 0, 4096+64)
	for i := range uint32(4096) {
		tris = append(tris, (i*2654435761)&(1<<24-1))
	}
	for _, t := range []string{"Err", "ing", "ret", "fun", "Clo", "Wri", "hor", "tSh"} {
		for range 8 {
			tris = append(tris, trigramOf(t))
		}
	}
	b.ResetTimer()
	i := 0
	for b.Loop() {
		if _, ok := s.row(tris[i%len(tris)]); !ok {
			b.Fatal("unreadable")
		}
		i++
	}
}

// BenchmarkLookupRareLiteral answers a query for a rare literal ("ErrShortWrite"): rows, then lists.
func BenchmarkLookupRareLiteral(b *testing.B) {
	s := lookupSegment(b)
	lit := "ErrShortWrite"
	q := &index.Query{Op: index.QAnd}
	for i := 0; i+3 <= len(lit); i++ {
		q.Trigram = append(q.Trigram, lit[i:i+3])
	}
	b.ResetTimer()
	for b.Loop() {
		if ids, all := s.Match(q); all || len(ids) == 0 {
			b.Fatal("no candidates")
		}
	}
}

// BenchmarkLookupAbsentLiteral: a literal in no file ("zzqxjv").
func BenchmarkLookupAbsentLiteral(b *testing.B) {
	s := lookupSegment(b)
	q := &index.Query{Op: index.QAnd, Trigram: []string{"zzq", "zqx", "qxj", "xjv"}}
	b.ResetTimer()
	for b.Loop() {
		if ids, all := s.Match(q); all || len(ids) != 0 {
			b.Fatal("candidates")
		}
	}
}
