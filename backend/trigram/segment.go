package trigram

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
)

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
	if size < uint64(headerLen+len(magic)) {
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
	if s.namesAt != uint64(headerLen) || s.namesAt+uint64(4*(s.files+1)) > s.tableAt || s.tableAt+uint64(16*s.tris) != s.postAt || s.postAt > s.end {
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
	if r.count == 0 {
		return nil, true
	}
	out := make([]uint32, 0, r.count)
	l := s.list(r, make([]byte, min(r.stop-r.start, listPiece)))
	for range r.count {
		id, ok := l.next()
		if !ok {
			return nil, false // a damaged list
		}
		out = append(out, id)
	}
	return out, true
}

// within returns the files of ids (increasing) that the row's list holds, decoding the list as it goes rather
// than into a list of its own, and only as far as the last of ids: once candidates are few, a trigram hundreds of
// thousands of files hold ("Err", "ing") is a pass over its bytes, read in pieces into buf, with no array of its
// numbers allocated, filled and read back. ok is false when the list could not be read (ids then stand as they
// are: it must not narrow anything).
func (s *Segment) within(ids []uint32, r where, buf []byte) (in []uint32, ok bool) {
	if r.count == 0 || len(ids) == 0 {
		return nil, true
	}
	l := s.list(r, buf)
	in = make([]uint32, 0, len(ids))
	j := 0
	for range r.count {
		id, ok := l.next()
		if !ok {
			return nil, false
		}
		for j < len(ids) && ids[j] < id {
			j++
		}
		if j == len(ids) {
			break // past the last candidate: the rest of the list cannot add one
		}
		if ids[j] == id {
			in = append(in, id)
			j++
		}
	}
	return in, true
}

// listPiece is how much of a posting list is read at a time: a list of a trigram every file holds is about a
// byte a file, hundreds of KiB on a big project, read once and decoded in place.
const listPiece = 64 << 10

// listReader decodes a posting list (varint gaps from the previous number) from the segment's file, a piece at a
// time into buf.
type listReader struct {
	f         *os.File
	off, stop int64
	buf, p    []byte
	id        uint32
	err       bool
}

func (s *Segment) list(r where, buf []byte) *listReader {
	return &listReader{f: s.f, off: int64(r.start), stop: int64(r.stop), buf: buf[:cap(buf)]}
}

// next returns the list's next number; false when the list is damaged or cannot be read.
func (l *listReader) next() (uint32, bool) {
	if len(l.p) < binary.MaxVarintLen32 && l.off < l.stop && !l.err {
		// Move what is left of the piece to the front and read the next behind it.
		n := copy(l.buf, l.p)
		want := min(int64(len(l.buf)-n), l.stop-l.off)
		if got, _ := l.f.ReadAt(l.buf[n:n+int(want)], l.off); int64(got) != want {
			l.err = true
			return 0, false
		}
		l.off += want
		l.p = l.buf[:n+int(want)]
	}
	if len(l.p) > 0 && l.p[0] < 0x80 { // most gaps of a long list fit a byte
		l.id += uint32(l.p[0])
		l.p = l.p[1:]
		return l.id, true
	}
	d, n := binary.Uvarint(l.p)
	if n <= 0 || d > 1<<32-1 {
		return 0, false
	}
	l.id += uint32(d)
	l.p = l.p[n:]
	return l.id, true
}
