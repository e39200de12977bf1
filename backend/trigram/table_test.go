package trigram

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/codesearch/index"
)

// The table's edges, through a written segment: no files, files without a trigram, one trigram, trigram counts
// either side of a block's size and of two blocks. Every trigram's list reads back, a trigram below the first,
// above the last and between two rows reads as held by no file, and a query for a held trigram finds its files.
func TestTableEdges(t *testing.T) {
	for _, c := range []struct {
		name        string
		files, tris int
	}{
		{"no files", 0, 0},
		{"files without a trigram", 3, 0},
		{"one trigram", 1, 1},
		{"a block less one", 5, blockRows - 1},
		{"a block", 5, blockRows},
		{"a block and one", 5, blockRows + 1},
		{"two blocks", 7, 2 * blockRows},
		{"two blocks and one", 7, 2*blockRows + 1},
		{"many blocks", 300, 40*blockRows + 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			var b Builder
			want := map[uint32][]uint32{}
			// Trigram k is 7k+3 apart from the next (gaps of one byte, and rows between them for the absent
			// ones); file f holds trigram k when k%(f+1) == 0, as a 3-byte file each (a file is its one trigram,
			// so a file of every trigram it holds would add the trigrams across their boundaries).
			tri := func(k int) uint32 { return uint32(7*k + 3) }
			id := uint32(0)
			for f := range c.files {
				for k := range c.tris {
					if k%(f+1) != 0 {
						continue
					}
					tr := tri(k)
					b.Add(fmt.Sprintf("f%d-%d", f, k), []byte{byte(tr >> 16), byte(tr >> 8), byte(tr)})
					want[tr] = append(want[tr], id)
					id++
				}
				if c.tris == 0 {
					b.Add(fmt.Sprintf("f%d", f), []byte("ab"))
					id++
				}
			}
			s := writeSegment(t, &b)
			if s.Files() != int(id) || s.tris != len(want) {
				t.Fatalf("%d files, %d trigrams; want %d, %d", s.Files(), s.tris, id, len(want))
			}
			if len(s.fence) != (len(want)+blockRows-1)/blockRows {
				t.Errorf("%d blocks for %d trigrams", len(s.fence), len(want))
			}
			for tr, ids := range want {
				got, ok := s.posting(tr)
				if !ok || !slices.Equal(got, ids) {
					t.Fatalf("trigram %06x: %v (%v), want %v", tr, got, ok, ids)
				}
				q := &index.Query{Op: index.QAnd, Trigram: []string{string([]byte{byte(tr >> 16), byte(tr >> 8), byte(tr)})}}
				if got, all := s.Match(q); all || !slices.Equal(got, ids) {
					t.Fatalf("query for trigram %06x: %v (all %v), want %v", tr, got, all, ids)
				}
			}
			for _, tr := range []uint32{0, 1, tri(0) + 1, tri(c.tris) - 2, tri(c.tris), 1<<24 - 1} {
				if _, held := want[tr]; held {
					continue
				}
				if got, ok := s.posting(tr); !ok || len(got) != 0 {
					t.Errorf("absent trigram %06x: %v (%v)", tr, got, ok)
				}
			}
		})
	}
}

// The codec at its limits: the first and last trigrams of the 24-bit range, counts of 2^32-1 and lists of the
// largest size a count allows, postings offsets past 2^32 (a project of several GB) and rows one trigram apart.
// findInBlock (a lookup) and tableReader (a merge) read back every row as written.
func TestTableCodecLimits(t *testing.T) {
	const max32 = 1<<32 - 1
	rows := []tableRow{
		{tri: 0, count: 1, size: 1},
		{tri: 1, count: max32, size: max32 * 5},
		{tri: 2, count: 3, size: 3},
	}
	for k := range 3 * blockRows {
		rows = append(rows, tableRow{tri: uint32(100 + 1000*k), count: uint32(k + 1), size: uint64(k+1) + uint64(k%4)})
	}
	rows = append(rows, tableRow{tri: 1<<24 - 2, count: 1, size: 5}, tableRow{tri: 1<<24 - 1, count: max32, size: max32})
	checkTable(t, rows, 1<<40)
}

// checkTable writes rows (in trigram order; their offsets are filled in, the first at base) and reads them back
// both ways.
func checkTable(t *testing.T, rows []tableRow, base uint64) {
	t.Helper()
	tw := tableWriter{off: base}
	var streamed bytes.Buffer // as a merge writes it: handed to a writer in pieces
	sw := tableWriter{off: base, w: &streamed}
	off := base
	for i := range rows {
		rows[i].off = off
		off += rows[i].size
		tw.add(rows[i].tri, rows[i].count, rows[i].size)
		sw.add(rows[i].tri, rows[i].count, rows[i].size)
	}
	table := tw.out
	if err := sw.flush(); err != nil || !bytes.Equal(streamed.Bytes(), table) || !bytes.Equal(sw.index, tw.index) || sw.pos != uint64(len(table)) {
		t.Fatalf("the table streamed differs from the table in memory (%v)", err)
	}
	postLen := off
	// The segment a reader needs: the table alone in a file, the postings as long as the offsets say.
	s := &Segment{tris: len(rows), postAt: 0, end: postLen, tableAt: 0, indexAt: uint64(len(table))}
	for b := 0; b*indexEntryLen < len(tw.index); b++ {
		s.fence = append(s.fence, uint32(tw.index[b*indexEntryLen])|uint32(tw.index[b*indexEntryLen+1])<<8|uint32(tw.index[b*indexEntryLen+2])<<16)
		at := tw.index[b*indexEntryLen+4:]
		s.blockAt = append(s.blockAt, uint32(at[0])|uint32(at[1])<<8|uint32(at[2])<<16|uint32(at[3])<<24)
	}
	for i, r := range rows {
		b := i / blockRows
		end := len(table)
		if b+1 < len(s.blockAt) {
			end = int(s.blockAt[b+1])
		}
		if end-int(s.blockAt[b]) > maxBlockLen {
			t.Fatalf("block %d: %d bytes, over %d", b, end-int(s.blockAt[b]), maxBlockLen)
		}
		got, err := findInBlock(table[s.blockAt[b]:end], s.fence[b], min(blockRows, len(rows)-b*blockRows), r.tri, postLen)
		if err != nil || got != r {
			t.Fatalf("row %d: %+v %v, want %+v", i, got, err, r)
		}
	}
	tr := newTableReader(s, bytes.NewReader(table), 4096)
	tr.off = base
	for i := 0; ; i++ {
		got, ok, err := tr.next()
		if err != nil {
			t.Fatalf("row %d: %v", i, err)
		}
		if !ok {
			if i != len(rows) {
				t.Fatalf("%d rows read, want %d", i, len(rows))
			}
			break
		}
		if got != rows[i] {
			t.Fatalf("row %d read in order: %+v, want %+v", i, got, rows[i])
		}
	}
}

// FuzzTable: rows made of any bytes (trigram gaps, counts, excess sizes) read back as written, both ways.
func FuzzTable(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{1, 1, 0})
	f.Add(bytes.Repeat([]byte{1, 200, 7}, 3*blockRows))
	f.Fuzz(func(t *testing.T, data []byte) {
		var rows []tableRow
		tri := uint32(0)
		for i := 0; i+3 <= len(data); i += 3 {
			gap := uint32(data[i])<<8 | uint32(data[i+1])
			if len(rows) > 0 {
				gap++ // increasing
			}
			if tri+gap >= 1<<24 {
				break
			}
			tri += gap
			count := uint32(data[i+1])<<(data[i]%25) | 1
			extra := uint64(data[i+2]) % (4*uint64(count) + 1)
			rows = append(rows, tableRow{tri: tri, count: count, size: uint64(count) + extra})
		}
		checkTable(t, rows, uint64(len(data))<<20)
	})
}

// FuzzOpenDamaged: a segment with any byte changed opens or is refused, and a query on it answers or narrows
// nothing, never a crash or a read out of bounds.
func FuzzOpenDamaged(f *testing.F) {
	var b Builder
	for k := range 3 * blockRows {
		b.Add(fmt.Sprintf("f%d", k), fmt.Appendf(nil, "%06x-%d", k*7919, k))
	}
	path := filepath.Join(f.TempDir(), "seg")
	if err := b.Write(path); err != nil {
		f.Fatal(err)
	}
	good, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(uint32(0), byte(1))
	f.Add(uint32(len(good)-40), byte(0xff))
	f.Add(uint32(len(good)/2), byte(0x80))
	f.Fuzz(func(t *testing.T, at uint32, x byte) {
		data := slices.Clone(good)
		data[int(at)%len(data)] ^= x
		p := filepath.Join(t.TempDir(), "seg")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := Open(p)
		if err != nil {
			return
		}
		defer s.Close()
		for k := 0; k < 3*blockRows; k += 17 {
			lit := fmt.Sprintf("%06x", k*7919)
			q := &index.Query{Op: index.QAnd, Trigram: []string{lit[:3], lit[1:4], lit[2:5], lit[3:]}}
			s.Match(q)
		}
		Merge(filepath.Join(t.TempDir(), "m"), []*Segment{s}, func() {})
	})
}
