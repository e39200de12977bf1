package trigram

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// The table says, for each trigram a segment holds, how many files hold it and where their list is. It is written
// in blocks of blockRows rows, each row a few varints, with a block index of 8 bytes a block (the block's first
// trigram and where the block starts in the table) that Open reads whole:
//
//	block: uvarint postings offset of its first row's list
//	       then per row: uvarint trigram - previous row's (absent in the block's first row: the index has it)
//	                     uvarint count (files holding the trigram)
//	                     uvarint size - count (the list's bytes beyond one a file: most gaps fit a byte, so mostly 0)
//
// A row is 3 to 4 bytes where it was 16 (a trigram, a count and a postings offset, fixed width): on a big project
// the table was 60% of what a build wrote. A list's start is the sum of the sizes before it in its block, so a
// lookup reads one block (under 2 KiB) with pread and decodes it up to the trigram.

// blockRows is how many rows a block holds: a lookup decodes half of them on average.
const blockRows = 128

// maxRowLen is the largest row: a 24-bit trigram gap, a 32-bit count and a 32-bit excess as varints.
const maxRowLen = 4 + 5 + 5

// maxBlockLen bounds a block: its postings offset and its rows.
const maxBlockLen = binary.MaxVarintLen64 + blockRows*maxRowLen

// indexEntryLen is a block index entry: the block's first trigram and its offset in the table, 4 bytes each.
const indexEntryLen = 8

// tableRow is one row as the codec sees it: the trigram, its count, and its list's place in the postings.
type tableRow struct {
	tri, count uint32
	off, size  uint64 // offset in the postings, and length in bytes
}

// errTable is a table that does not decode: rows out of order, a list out of its bounds, varints cut short.
var errTable = errors.New("a damaged table")

// tableWriter encodes rows in trigram order into out, handed to w (when not nil) in pieces of about 64 KiB, and
// the block index into index.
type tableWriter struct {
	w     io.Writer
	out   []byte
	rows  int
	prev  uint32 // the previous row's trigram
	off   uint64 // where the next row's list starts in the postings
	pos   uint64 // bytes of table encoded
	index []byte // the block index, kept to be written after the table
	err   error
}

// add appends a row whose list of size bytes follows the previous row's in the postings.
func (t *tableWriter) add(tri, count uint32, size uint64) {
	n := len(t.out)
	if t.rows%blockRows == 0 {
		t.index = binary.LittleEndian.AppendUint32(t.index, tri)
		t.index = binary.LittleEndian.AppendUint32(t.index, uint32(t.pos))
		t.out = binary.AppendUvarint(t.out, t.off)
	} else {
		t.out = binary.AppendUvarint(t.out, uint64(tri-t.prev))
	}
	t.out = binary.AppendUvarint(t.out, uint64(count))
	t.out = binary.AppendUvarint(t.out, size-uint64(count))
	t.pos += uint64(len(t.out) - n)
	t.prev, t.off = tri, t.off+size
	t.rows++
	if t.w != nil && len(t.out) >= 60<<10 {
		t.flush()
	}
}

// flush hands what is encoded to w.
func (t *tableWriter) flush() error {
	if t.w != nil && len(t.out) > 0 && t.err == nil {
		_, t.err = t.w.Write(t.out)
		t.out = t.out[:0]
	}
	return t.err
}

// findInBlock looks for tri in a block whose first trigram is first, of rows rows; count is 0 when no row holds
// it. postLen bounds the lists.
func findInBlock(block []byte, first uint32, rows int, tri uint32, postLen uint64) (r tableRow, err error) {
	p := block
	off, n := binary.Uvarint(p)
	if n <= 0 {
		return r, errTable
	}
	p = p[n:]
	cur := first
	for i := range rows {
		if i > 0 {
			d, n := binary.Uvarint(p)
			if n <= 0 || d == 0 || d >= 1<<24 {
				return r, errTable
			}
			cur += uint32(d)
			p = p[n:]
		}
		count, n := binary.Uvarint(p)
		if n <= 0 || count > 1<<32-1 {
			return r, errTable
		}
		p = p[n:]
		extra, n := binary.Uvarint(p)
		if n <= 0 || extra > count*(binary.MaxVarintLen32-1) {
			return r, errTable
		}
		p = p[n:]
		size := count + extra
		if off > postLen || size > postLen-off {
			return r, errTable
		}
		if cur == tri {
			return tableRow{tri: tri, count: uint32(count), off: off, size: size}, nil
		}
		if cur > tri {
			break
		}
		off += size
	}
	return tableRow{}, nil
}

// tableReader decodes a segment's table front to back, a block at a time, checking it against the block index
// and the postings' length: a merge reads every row once through it.
type tableReader struct {
	r         *bufio.Reader
	s         *Segment
	row       int
	block     [maxBlockLen]byte
	p         []byte // what is left of the current block
	tri       uint32
	off       uint64 // where the next row's list starts
	postLen   uint64
	tableSize uint64
}

// newTableReader reads s's table from f (s's file; a test's table alone).
func newTableReader(s *Segment, f io.ReaderAt, bufSize int) *tableReader {
	tableLen := s.indexAt - s.tableAt
	return &tableReader{
		r:         bufio.NewReaderSize(io.NewSectionReader(f, int64(s.tableAt), int64(tableLen)), bufSize),
		s:         s,
		postLen:   s.end - s.postAt,
		tableSize: tableLen,
	}
}

func (t *tableReader) uvarint() (uint64, error) {
	v, n := binary.Uvarint(t.p)
	if n <= 0 {
		return 0, errTable
	}
	t.p = t.p[n:]
	return v, nil
}

// next returns the next row; ok is false after the last.
func (t *tableReader) next() (r tableRow, ok bool, err error) {
	if t.row == t.s.tris {
		return r, false, nil
	}
	if err := t.read(); err != nil {
		return r, false, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	count, err := t.uvarint()
	if err != nil || count > 1<<32-1 {
		return r, false, fmt.Errorf("%w: %v", ErrCorrupt, errTable)
	}
	extra, err := t.uvarint()
	if err != nil || extra > count*(binary.MaxVarintLen32-1) {
		return r, false, fmt.Errorf("%w: %v", ErrCorrupt, errTable)
	}
	size := count + extra
	if t.off > t.postLen || size > t.postLen-t.off {
		return r, false, fmt.Errorf("%w: %v", ErrCorrupt, errTable)
	}
	r = tableRow{tri: t.tri, count: uint32(count), off: t.off, size: size}
	t.off += size
	t.row++
	if (t.row%blockRows == 0 || t.row == t.s.tris) && len(t.p) != 0 {
		return r, false, fmt.Errorf("%w: a block longer than its rows", ErrCorrupt)
	}
	return r, true, nil
}

// read reads the next row's trigram: at a block's start, the block (whose postings offset must follow the lists
// before it) and its first trigram from the index.
func (t *tableReader) read() error {
	if b := t.row / blockRows; t.row%blockRows == 0 {
		end := t.tableSize
		if b+1 < len(t.s.blockAt) {
			end = uint64(t.s.blockAt[b+1])
		}
		n := end - uint64(t.s.blockAt[b]) // at most maxBlockLen: Open checked
		if n > maxBlockLen {
			return errTable
		}
		t.p = t.block[:n]
		if _, err := io.ReadFull(t.r, t.p); err != nil {
			return err
		}
		off, err := t.uvarint()
		if err != nil || off != t.off {
			return errTable
		}
		t.tri = t.s.fence[b]
		return nil
	}
	d, err := t.uvarint()
	if err != nil || d == 0 || d >= 1<<24 || uint64(t.tri)+d >= 1<<24 {
		return errTable
	}
	t.tri += uint32(d)
	return nil
}
