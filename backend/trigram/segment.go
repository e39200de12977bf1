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

// Segment is a written segment, open for reading. Its block index (8 bytes every blockRows rows of its table) is
// held in memory; a lookup reads one block of the table and one posting list with pread. The names of its files
// stay on disk (Name reads one): a search asks for files by number, and on a 92k-file project the names were
// 4.5 MiB. (A memory map was tried first: the kernel maps the neighbours of every page a lookup touches, so a few
// searches left the whole index resident in the process.)
type Segment struct {
	f                        *os.File
	files, tris              int
	postAt, tableAt, indexAt uint64
	end                      uint64   // where the postings end (the table starts)
	namesLen                 uint64   // the names' bytes, after files+1 offsets into them
	fence                    []uint32 // the first trigram of each block of the table
	blockAt                  []uint32 // where each block starts in the table
}

// fenceEvery is how many table rows a lookup decodes at most.
const fenceEvery = blockRows

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
	if size < namesAt+footerLen+uint64(len(magic)) {
		return errors.New("no header or trailer")
	}
	h := make([]byte, len(magic))
	tail := make([]byte, footerLen+len(magic))
	if _, err := s.f.ReadAt(h, 0); err != nil {
		return err
	}
	if _, err := s.f.ReadAt(tail, int64(size)-int64(len(tail))); err != nil {
		return err
	}
	if string(h) != magic || string(tail[footerLen:]) != magic {
		return errors.New("no header or trailer (or a layout of another version)")
	}
	le := binary.LittleEndian
	s.files, s.tris = int(le.Uint32(tail)), int(le.Uint32(tail[4:]))
	s.postAt, s.tableAt, s.indexAt = le.Uint64(tail[8:]), le.Uint64(tail[16:]), le.Uint64(tail[24:])
	s.end = s.tableAt
	blocks := uint64((s.tris + blockRows - 1) / blockRows)
	footerAt := size - uint64(len(tail))
	if namesAt+uint64(4*(s.files+1)) > s.postAt || s.postAt > s.tableAt || s.tableAt > s.indexAt ||
		s.indexAt > footerAt || footerAt-s.indexAt != indexEntryLen*blocks || s.indexAt-s.tableAt > 1<<32-1 ||
		(blocks == 0) != (s.indexAt == s.tableAt) {
		return errors.New("sections out of bounds")
	}
	// The names' offsets are checked, not kept: in order, the last at the names' end.
	s.namesLen = s.postAt - namesAt - uint64(4*(s.files+1))
	offs := bufio.NewReaderSize(io.NewSectionReader(s.f, int64(namesAt), int64(4*(s.files+1))), 64<<10)
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
	// The block index, read whole: trigrams and offsets increasing, each block no longer than its rows can be.
	index := make([]byte, indexEntryLen*blocks)
	if _, err := s.f.ReadAt(index, int64(s.indexAt)); err != nil {
		return err
	}
	s.fence, s.blockAt = make([]uint32, blocks), make([]uint32, blocks)
	tableLen := s.indexAt - s.tableAt
	for b := range s.fence {
		tri, at := le.Uint32(index[indexEntryLen*b:]), le.Uint32(index[indexEntryLen*b+4:])
		if tri >= 1<<24 || b > 0 && (tri <= s.fence[b-1] || at <= s.blockAt[b-1] || at-s.blockAt[b-1] > maxBlockLen) ||
			b == 0 && at != 0 || uint64(at) >= tableLen {
			return errors.New("block index out of order")
		}
		s.fence[b], s.blockAt[b] = tri, at
	}
	if blocks > 0 && tableLen-uint64(s.blockAt[blocks-1]) > maxBlockLen {
		return errors.New("block index out of order")
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
	if _, err := s.f.ReadAt(ob[:], int64(namesAt)+4*int64(id)); err != nil {
		return ""
	}
	from, to := binary.LittleEndian.Uint32(ob[:]), binary.LittleEndian.Uint32(ob[4:])
	name := make([]byte, to-from)
	if _, err := s.f.ReadAt(name, int64(namesAt)+4*int64(s.files+1)+int64(from)); err != nil {
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
	stop := s.indexAt
	if b+1 < len(s.blockAt) {
		stop = s.tableAt + uint64(s.blockAt[b+1])
	}
	from := s.tableAt + uint64(s.blockAt[b])
	var buf [maxBlockLen]byte
	block := buf[:stop-from]
	if _, err := s.f.ReadAt(block, int64(from)); err != nil {
		return where{}, false
	}
	t, err := findInBlock(block, s.fence[b], min(blockRows, s.tris-b*blockRows), tri, s.end-s.postAt)
	if err != nil {
		return where{}, false // a damaged table
	}
	if t.count == 0 {
		return where{}, true
	}
	return where{count: t.count, start: s.postAt + t.off, stop: s.postAt + t.off + t.size}, true
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
