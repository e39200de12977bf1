// Package trigram is an on-disk index of which files contain which three-byte sequences, so that a search reads
// only the files that can match, as google/codesearch and sourcegraph/zoekt do. A query is a boolean formula over
// trigrams (google/codesearch's index.RegexpQuery turns a regular expression into one); the index answers with a
// superset of the files that match, and the caller verifies each candidate against its text.
//
// A segment is one file: the names of the files it covers, a sorted table of trigrams, and for each a list of file
// numbers, delta- and varint-encoded. It is written once (atomically) and read with pread: in memory stay only the
// file names and a sparse fence over the table, so its resident cost is a small fraction of its size. Guaranteed: no file containing a query's trigrams is left out.
// Not guaranteed: anything about files that changed after the segment was written; the caller tracks those.
package trigram

import (
	"bufio"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"os"
	"path/filepath"
	"slices"

	"github.com/google/codesearch/index"
)

const magic = "RTRI1\n"

// ErrCorrupt says a segment file is not one this package wrote, or was cut short.
var ErrCorrupt = errors.New("trigram: corrupt segment")

// Builder collects the trigrams of files for one segment. Its memory is its pairs, 8 bytes each (a caller bounds
// a segment by Pairs), kept apart by the trigram's first byte so that Write sorts one part at a time with a
// scratch array the size of the largest part, not of all of them; and a 2 MiB set of the trigrams seen in the
// file being added. Reset keeps all of it for the next segment.
type Builder struct {
	names   []string
	parts   [256][]uint64 // trigram<<32 | file number, by the trigram's first byte, each in file order
	pairs   int
	seen    []uint64    // a bit per trigram: in the file being added (cleared after each file)
	mark    [256]uint32 // each part's length before the file being added
	scratch []uint64    // Write's radix sort of one part
	count   [256]int32  // Write's radix sort
	rows    []row       // Write's table
}

// row is one trigram's entry in a segment's table: how many files hold it and where their list starts.
type row struct {
	tri, count uint32
	off        uint64
}

// uvarintLen is the size of v as a varint.
func uvarintLen(v uint32) int {
	n := 1
	for v >= 0x80 {
		v >>= 7
		n++
	}
	return n
}

// Add records the trigrams of the file's content; it returns the file's number in the segment.
//
// Each trigram of the file is recorded once, in one pass over the content: a bit per possible trigram says it was
// seen (sorting each file's trigrams to drop repeats took two thirds of a build).
func (b *Builder) Add(name string, content []byte) uint32 {
	id := uint32(len(b.names))
	b.names = append(b.names, name)
	if len(content) < 3 {
		return id
	}
	if b.seen == nil {
		b.seen = make([]uint64, 1<<24/64)
	}
	for i := range b.parts {
		b.mark[i] = uint32(len(b.parts[i]))
	}
	seen, added := b.seen, 0
	tri := uint32(content[0])<<8 | uint32(content[1])
	for _, c := range content[2:] {
		tri = (tri<<8 | uint32(c)) & (1<<24 - 1)
		w, bit := tri>>6, uint64(1)<<(tri&63)
		if seen[w]&bit == 0 {
			seen[w] |= bit
			part := &b.parts[tri>>16]
			*part = append(*part, uint64(tri)<<32|uint64(id))
			added++
		}
	}
	b.pairs += added
	for i := range b.parts {
		for _, p := range b.parts[i][b.mark[i]:] {
			seen[uint32(p>>32)>>6] = 0 // every bit of the word was set by this file: clearing the word clears them
		}
	}
	return id
}

// Reset empties the builder for the next segment, keeping its arrays.
func (b *Builder) Reset() {
	clear(b.names)
	b.names, b.pairs = b.names[:0], 0
	for i := range b.parts {
		b.parts[i] = b.parts[i][:0]
	}
}

// Files is how many files were added.
func (b *Builder) Files() int { return len(b.names) }

// Pairs is how many (trigram, file) pairs were added: what a segment's size and its building's memory follow.
func (b *Builder) Pairs() int { return b.pairs }

// sortParts orders each part's pairs by trigram, then file number: a stable radix sort on the trigram's two lower
// bytes (the part is its first), as Add appended them in file order. A comparison sort of millions of pairs took
// longer than reading the files.
func (b *Builder) sortParts() {
	for i := range b.parts {
		part := b.parts[i]
		if len(part) < 2 {
			continue
		}
		if cap(b.scratch) < len(part) {
			b.scratch = make([]uint64, len(part))
		}
		src, dst := part, b.scratch[:len(part)]
		for shift := uint(32); shift < 48; shift += 8 {
			clear(b.count[:])
			for _, p := range src {
				b.count[byte(p>>shift)]++
			}
			var at int32
			for j, c := range b.count {
				b.count[j] = at
				at += c
			}
			for _, p := range src {
				d := byte(p >> shift)
				dst[b.count[d]] = p
				b.count[d]++
			}
			src, dst = dst, src
		}
		// Two passes: the sorted pairs are back in the part's own array.
	}
}

// each calls f with every pair, in order of trigram, then file number (after sortParts).
func (b *Builder) each(f func(p uint64)) {
	for _, part := range b.parts {
		for _, p := range part {
			f(p)
		}
	}
}

// Write stores the segment at path: written to a temporary file in the same folder, then renamed.
func (b *Builder) Write(path string) error {
	b.sortParts()
	tmp, err := os.CreateTemp(filepath.Dir(path), ".segment-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	w := bufio.NewWriterSize(tmp, 1<<20)
	// Header: magic, file count, trigram count, then the offsets of the names, the table and the postings. The
	// table is computed first (a posting list's size is the sum of its varints' sizes), so the postings are
	// encoded straight into the writer rather than into a buffer of their own.
	rows := b.rows[:0]
	var size uint64
	prev := uint32(0)
	b.each(func(p uint64) {
		tri, id := uint32(p>>32), uint32(p)
		if len(rows) == 0 || rows[len(rows)-1].tri != tri {
			rows = append(rows, row{tri: tri, off: size})
			prev = 0
		}
		rows[len(rows)-1].count++
		size += uint64(uvarintLen(id - prev))
		prev = id
	})
	b.rows = rows
	var names []byte
	nameOff := make([]uint32, 0, len(b.names)+1)
	for _, n := range b.names {
		nameOff = append(nameOff, uint32(len(names)))
		names = append(names, n...)
	}
	nameOff = append(nameOff, uint32(len(names)))

	headerLen := len(magic) + 4*2 + 8*3
	namesAt := uint64(headerLen)
	tableAt := namesAt + uint64(4*len(nameOff)) + uint64(len(names))
	postAt := tableAt + uint64(16*len(rows))
	le := binary.LittleEndian
	w.WriteString(magic)
	w.Write(le.AppendUint32(nil, uint32(len(b.names))))
	w.Write(le.AppendUint32(nil, uint32(len(rows))))
	w.Write(le.AppendUint64(nil, namesAt))
	w.Write(le.AppendUint64(nil, tableAt))
	w.Write(le.AppendUint64(nil, postAt))
	var buf [16]byte
	for _, o := range nameOff {
		le.PutUint32(buf[:], o)
		w.Write(buf[:4])
	}
	w.Write(names)
	for _, r := range rows {
		le.PutUint32(buf[:], r.tri)
		le.PutUint32(buf[4:], r.count)
		le.PutUint64(buf[8:], r.off)
		w.Write(buf[:])
	}
	last := ^uint32(0)
	b.each(func(p uint64) {
		tri, id := uint32(p>>32), uint32(p)
		if tri != last {
			last, prev = tri, 0
		}
		n := binary.PutUvarint(buf[:], uint64(id-prev))
		w.Write(buf[:n])
		prev = id
	})
	w.WriteString(magic) // a trailer: a segment cut short is recognised
	if err := w.Flush(); err != nil {
		tmp.Close()
		return err
	}
	// No fsync: a segment is a cache, checked when opened (a file cut short by a crash has no trailer and is
	// rebuilt), and syncing hundreds of megabytes would make every other write on the disk wait behind it.
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// Segment is a written segment, open for reading. One trigram in every fenceEvery rows of its table is held in
// memory; a lookup reads one block of the table and one posting list with pread. The names of its files stay on
// disk (Name reads one): a search asks for files by number, and on a 92k-file project the names were 4.5 MiB.
// (A memory map was tried first: the kernel maps the neighbours of every page a lookup touches, so a few searches
// left the whole index resident in the process.)
type Segment struct {
	f                        *os.File
	files, tris              int
	namesAt, tableAt, postAt uint64
	end                      uint64   // where the postings end (the trailer)
	namesLen                 uint64   // the names' bytes, after files+1 offsets into them
	fence                    []uint32 // the trigram of every fenceEvery-th row
}

// fenceEvery is how many table rows (16 bytes each) a lookup reads at once.
const fenceEvery = 256

// Open opens the segment at path and checks its structure.
func Open(path string) (*Segment, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	s := &Segment{f: f}
	if err := s.load(); err != nil {
		f.Close()
		return nil, fmt.Errorf("%w: %s: %v", ErrCorrupt, path, err)
	}
	return s, nil
}

func (s *Segment) load() error {
	fi, err := s.f.Stat()
	if err != nil {
		return err
	}
	size := uint64(fi.Size())
	headerLen := uint64(len(magic) + 4*2 + 8*3)
	if size < headerLen+uint64(len(magic)) {
		return errors.New("no header or trailer")
	}
	h := make([]byte, headerLen)
	trailer := make([]byte, len(magic))
	if _, err := s.f.ReadAt(h, 0); err != nil {
		return err
	}
	if _, err := s.f.ReadAt(trailer, int64(size)-int64(len(magic))); err != nil {
		return err
	}
	if string(h[:len(magic)]) != magic || string(trailer) != magic {
		return errors.New("no header or trailer")
	}
	le := binary.LittleEndian
	h = h[len(magic):]
	s.files, s.tris = int(le.Uint32(h)), int(le.Uint32(h[4:]))
	s.namesAt, s.tableAt, s.postAt = le.Uint64(h[8:]), le.Uint64(h[16:]), le.Uint64(h[24:])
	s.end = size - uint64(len(magic))
	if s.namesAt != headerLen || s.namesAt+uint64(4*(s.files+1)) > s.tableAt || s.tableAt+uint64(16*s.tris) != s.postAt || s.postAt > s.end {
		return errors.New("sections out of bounds")
	}
	// The names' offsets are checked, not kept: in order, the last at the names' end.
	s.namesLen = s.tableAt - s.namesAt - uint64(4*(s.files+1))
	offs := bufio.NewReaderSize(io.NewSectionReader(s.f, int64(s.namesAt), int64(4*(s.files+1))), 64<<10)
	var ob [4]byte
	prev := uint32(0)
	for range s.files + 1 {
		if _, err := io.ReadFull(offs, ob[:]); err != nil {
			return err
		}
		o := le.Uint32(ob[:])
		if o < prev {
			return errors.New("names out of bounds")
		}
		prev = o
	}
	if uint64(prev) != s.namesLen {
		return errors.New("names out of bounds")
	}
	// The fences, read from the table in large pieces.
	s.fence = make([]uint32, 0, (s.tris+fenceEvery-1)/fenceEvery)
	const chunkRows = 64 * fenceEvery
	buf := make([]byte, 16*chunkRows)
	for first := 0; first < s.tris; first += chunkRows {
		n := min(chunkRows, s.tris-first)
		if _, err := s.f.ReadAt(buf[:16*n], int64(s.tableAt)+int64(16*first)); err != nil {
			return err
		}
		for r := 0; r < n; r += fenceEvery {
			s.fence = append(s.fence, le.Uint32(buf[16*r:]))
		}
	}
	return nil
}

// Close closes the segment's file.
func (s *Segment) Close() error { return s.f.Close() }

// Files is how many files the segment covers.
func (s *Segment) Files() int { return s.files }

// Name returns the name of file number id, read from the segment's file ("" when it cannot be read).
func (s *Segment) Name(id uint32) string {
	if int(id) >= s.files {
		return ""
	}
	var ob [8]byte
	if _, err := s.f.ReadAt(ob[:], int64(s.namesAt)+4*int64(id)); err != nil {
		return ""
	}
	from, to := binary.LittleEndian.Uint32(ob[:]), binary.LittleEndian.Uint32(ob[4:])
	name := make([]byte, to-from)
	if _, err := s.f.ReadAt(name, int64(s.namesAt)+4*int64(s.files+1)+int64(from)); err != nil {
		return ""
	}
	return string(name)
}

// posting returns the files containing the trigram, in increasing order; ok is false when the segment could not
// be read, and then the trigram must not narrow anything.
func (s *Segment) posting(tri uint32) (ids []uint32, ok bool) {
	r, ok := s.row(tri)
	if !ok {
		return nil, false
	}
	return s.decode(r)
}

// where is a trigram's row: how many files hold it and where their list is.
type where struct {
	count       uint32
	start, stop uint64
}

// row finds the trigram's row (count 0: no file holds it); ok is false when the segment could not be read.
func (s *Segment) row(tri uint32) (r where, ok bool) {
	if s.tris == 0 {
		return where{}, true
	}
	// The block whose first trigram is the last one not above tri.
	b, found := slices.BinarySearch(s.fence, tri)
	if !found {
		if b == 0 {
			return where{}, true
		}
		b--
	}
	first := b * fenceEvery
	n := min(fenceEvery+1, s.tris-first) // one row more: where the next posting list starts
	block := make([]byte, 16*n)
	if _, err := s.f.ReadAt(block, int64(s.tableAt)+int64(16*first)); err != nil {
		return where{}, false
	}
	le := binary.LittleEndian
	rows := min(fenceEvery, n)
	lo, hi := 0, rows
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if le.Uint32(block[16*m:]) < tri {
			lo = m + 1
		} else {
			hi = m
		}
	}
	i := lo
	if i == rows || le.Uint32(block[16*i:]) != tri {
		return where{}, true
	}
	r = where{count: le.Uint32(block[16*i+4:]), start: s.postAt + le.Uint64(block[16*i+8:]), stop: s.end}
	if i+1 < n {
		r.stop = s.postAt + le.Uint64(block[16*(i+1)+8:])
	}
	if r.stop < r.start || r.stop > s.end || r.stop-r.start > uint64(r.count)*binary.MaxVarintLen32 {
		return where{}, false // a damaged table
	}
	return r, true
}

// decode reads a row's list of files.
func (s *Segment) decode(r where) (ids []uint32, ok bool) {
	count, start, stop := r.count, r.start, r.stop
	if count == 0 {
		return nil, true
	}
	p := make([]byte, stop-start)
	if _, err := s.f.ReadAt(p, int64(start)); err != nil {
		return nil, false
	}
	out := make([]uint32, 0, count)
	id := uint32(0)
	for range count {
		d, n := binary.Uvarint(p)
		if n <= 0 {
			return nil, false // a damaged list
		}
		id += uint32(d)
		out = append(out, id)
		p = p[n:]
	}
	return out, true
}

// Match returns the numbers of the files that may satisfy q, and all=true when q does not narrow anything (every
// file may match).
func (s *Segment) Match(q *index.Query) (ids []uint32, all bool) {
	switch q.Op {
	case index.QAll:
		return nil, true
	case index.QNone:
		return nil, false
	case index.QAnd:
		// The rows first, then the lists from the shortest: a trigram no file holds ends the lookup before any
		// list is read, and the longest lists (on a big project, hundreds of thousands of files for "Err" or
		// "ing") are read last, if at all. A literal in no file took 155 ms at 460k files read in query order.
		rows := make([]where, 0, len(q.Trigram))
		for _, t := range q.Trigram {
			r, ok := s.row(trigramOf(t))
			if !ok {
				continue // unreadable: it narrows nothing
			}
			if r.count == 0 {
				return nil, false
			}
			rows = append(rows, r)
		}
		slices.SortFunc(rows, func(a, b where) int { return cmp.Compare(a.count, b.count) })
		all = true
		for _, r := range rows {
			l, ok := s.decode(r)
			if !ok {
				continue
			}
			ids, all = intersect(ids, all, l), false
			if len(ids) == 0 {
				return nil, false
			}
		}
		for _, sub := range q.Sub {
			l, subAll := s.Match(sub)
			if subAll {
				continue
			}
			ids, all = intersect(ids, all, l), false
			if len(ids) == 0 {
				return nil, false
			}
		}
		return ids, all
	case index.QOr:
		for _, t := range q.Trigram {
			l, ok := s.posting(trigramOf(t))
			if !ok {
				return nil, true
			}
			ids = union(ids, l)
		}
		for _, sub := range q.Sub {
			l, subAll := s.Match(sub)
			if subAll {
				return nil, true
			}
			ids = union(ids, l)
		}
		return ids, false
	}
	return nil, true
}

func trigramOf(t string) uint32 {
	if len(t) < 3 {
		return 0
	}
	return uint32(t[0])<<16 | uint32(t[1])<<8 | uint32(t[2])
}

func intersect(a []uint32, aAll bool, b []uint32) []uint32 {
	if aAll {
		return b
	}
	out := a[:0:0]
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	return out
}

func union(a, b []uint32) []uint32 {
	out := make([]uint32, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			out = append(out, a[i])
			i++
		case a[i] > b[j]:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	return append(append(out, a[i:]...), b[j:]...)
}

// Merge writes one segment at path holding the files of segs in order (file number i of segs[k] becomes the sum of
// the earlier segments' file counts plus i), so that a lookup reads one table and one posting list instead of one
// of each per segment. It streams: each segment's table and postings are read once, front to back, through small
// buffers, and the merged table and postings are written as they are produced, so its memory is a 2 MiB set of the
// trigrams present and the buffers, whatever the segments' size. yield is called now and then (background work
// waits there for searches). The merged file is written under a temporary name and renamed: a merge cut short
// leaves segs as they were and no file at path.
func Merge(path string, segs []*Segment, yield func()) error {
	// The merged table's length (how many distinct trigrams) fixes where the postings start; a first pass over
	// the tables counts them in a set of a bit per trigram.
	present := make([]uint64, 1<<24/64)
	tris := 0
	for _, s := range segs {
		r := bufio.NewReaderSize(io.NewSectionReader(s.f, int64(s.tableAt), int64(16*s.tris)), 64<<10)
		var rb [16]byte
		for range s.tris {
			if _, err := io.ReadFull(r, rb[:]); err != nil {
				return fmt.Errorf("%w: %v", ErrCorrupt, err)
			}
			t := binary.LittleEndian.Uint32(rb[:])
			if t >= 1<<24 {
				return fmt.Errorf("%w: trigram out of range", ErrCorrupt)
			}
			if present[t>>6]&(1<<(t&63)) == 0 {
				present[t>>6] |= 1 << (t & 63)
				tris++
			}
		}
		yield()
	}
	files, namesLen := 0, uint64(0)
	for _, s := range segs {
		files += s.files
		namesLen += s.namesLen
	}
	if namesLen > 1<<32-1 || files > 1<<32-2 {
		return errors.New("trigram: merged segment too large")
	}

	tmp, err := os.CreateTemp(filepath.Dir(path), ".merge-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after the rename, nothing to remove
	fail := func(err error) error {
		tmp.Close()
		return err
	}
	headerLen := len(magic) + 4*2 + 8*3
	namesAt := uint64(headerLen)
	tableAt := namesAt + uint64(4*(files+1)) + namesLen
	postAt := tableAt + uint64(16*tris)
	le := binary.LittleEndian

	// Header and names, front to back.
	w := bufio.NewWriterSize(tmp, 256<<10)
	w.WriteString(magic)
	w.Write(le.AppendUint32(nil, uint32(files)))
	w.Write(le.AppendUint32(nil, uint32(tris)))
	w.Write(le.AppendUint64(nil, namesAt))
	w.Write(le.AppendUint64(nil, tableAt))
	w.Write(le.AppendUint64(nil, postAt))
	// Each segment's name offsets (less its last, the end of its names) moved past the names before it, then the
	// names as they are: both streamed from the segments' files.
	var buf [16]byte
	at := uint32(0)
	for _, s := range segs {
		offs := bufio.NewReaderSize(io.NewSectionReader(s.f, int64(s.namesAt), int64(4*s.files)), 64<<10)
		for range s.files {
			if _, err := io.ReadFull(offs, buf[:4]); err != nil {
				return fail(fmt.Errorf("%w: %v", ErrCorrupt, err))
			}
			le.PutUint32(buf[:], at+le.Uint32(buf[:4]))
			w.Write(buf[:4])
		}
		at += uint32(s.namesLen)
	}
	le.PutUint32(buf[:], at)
	w.Write(buf[:4])
	for _, s := range segs {
		if _, err := io.Copy(w, io.NewSectionReader(s.f, int64(s.namesAt)+int64(4*(s.files+1)), int64(s.namesLen))); err != nil {
			return fail(fmt.Errorf("%w: %v", ErrCorrupt, err))
		}
	}
	if err := w.Flush(); err != nil {
		return fail(err)
	}

	// The table and the postings, each written front to back at its own offset, trigram by trigram in order.
	table := bufio.NewWriterSize(io.NewOffsetWriter(tmp, int64(tableAt)), 64<<10)
	post := bufio.NewWriterSize(io.NewOffsetWriter(tmp, int64(postAt)), 256<<10)
	type cursor struct {
		rows, post *bufio.Reader
		left       int    // rows not yet read
		tri, count uint32 // the current row (tri is 1<<24 when none is left)
		off, want  uint64 // where the postings read so far end; where the current row says its list starts
		base       uint32 // the segment's first file number in the merged segment
	}
	cur := make([]cursor, len(segs))
	next := func(c *cursor) error {
		if c.left == 0 {
			c.tri = 1 << 24
			return nil
		}
		var rb [16]byte
		if _, err := io.ReadFull(c.rows, rb[:]); err != nil {
			return fmt.Errorf("%w: %v", ErrCorrupt, err)
		}
		c.left--
		c.tri, c.count, c.want = le.Uint32(rb[:]), le.Uint32(rb[4:]), le.Uint64(rb[8:])
		if c.want != c.off {
			return fmt.Errorf("%w: posting lists out of order", ErrCorrupt)
		}
		return nil
	}
	base := uint32(0)
	for k, s := range segs {
		c := &cur[k]
		c.rows = bufio.NewReaderSize(io.NewSectionReader(s.f, int64(s.tableAt), int64(16*s.tris)), 16<<10)
		c.post = bufio.NewReaderSize(io.NewSectionReader(s.f, int64(s.postAt), int64(s.end-s.postAt)), 32<<10)
		c.left, c.base = s.tris, base
		base += uint32(s.files)
		if err := next(c); err != nil {
			return fail(err)
		}
	}
	var size uint64
	done := 0
	for wi, word := range present {
		for word != 0 {
			bit := uint32(bits.TrailingZeros64(word))
			word &^= 1 << bit
			tri := uint32(wi)<<6 | bit
			var count uint32
			start, prev := size, uint32(0)
			for k := range cur {
				c := &cur[k]
				if c.tri != tri {
					continue
				}
				id := uint32(0)
				for range c.count {
					d, err := binary.ReadUvarint(c.post)
					if err != nil || d > 1<<32-1 {
						return fail(fmt.Errorf("%w: a damaged posting list", ErrCorrupt))
					}
					c.off += uint64(uvarintLen(uint32(d)))
					id += uint32(d)
					n := binary.PutUvarint(buf[:], uint64(c.base+id-prev))
					post.Write(buf[:n])
					size += uint64(n)
					prev = c.base + id
				}
				count += c.count
				if err := next(c); err != nil {
					return fail(err)
				}
			}
			le.PutUint32(buf[:], tri)
			le.PutUint32(buf[4:], count)
			le.PutUint64(buf[8:], start)
			table.Write(buf[:])
			if done++; done%(64<<10) == 0 {
				yield()
			}
		}
	}
	for k := range cur {
		if cur[k].left != 0 || cur[k].tri != 1<<24 {
			return fail(fmt.Errorf("%w: rows left over", ErrCorrupt))
		}
	}
	if err := table.Flush(); err != nil {
		return fail(err)
	}
	post.WriteString(magic)
	if err := post.Flush(); err != nil {
		return fail(err)
	}
	// Not synced, as Write does not sync: a merged file cut short by a crash has no trailer and is refused by Open,
	// and the index is then built anew.
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
