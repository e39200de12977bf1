package trigram

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"os"
	"path/filepath"
)

// Merge writes one segment at path holding the files of segs in order (file number i of segs[k] becomes the sum of
// the earlier segments' file counts plus i), so that a lookup reads one table and one posting list instead of one
// of each per segment. It streams: each segment's table and postings are read once, front to back, through small
// buffers, and the merged table and postings are written as they are produced, so its memory is a 2 MiB set of the
// trigrams present and the buffers, whatever the segments' size. yield is called now and then (background work
// waits there for searches). The merged file is written under a temporary name and renamed: a merge cut short
// leaves segs as they were and no file at path.
//
// The steps: count the distinct trigrams (they fix where the postings start), write the header and the names,
// then the table and the postings trigram by trigram.
func Merge(path string, segs []*Segment, yield func()) error {
	present, tris, err := distinctTrigrams(segs, yield)
	if err != nil {
		return err
	}
	l := layout{tris: tris}
	for _, s := range segs {
		l.files += s.files
		l.namesLen += s.namesLen
	}
	if l.namesLen > 1<<32-1 || l.files > 1<<32-2 {
		return errors.New("trigram: merged segment too large")
	}
	l.namesAt = uint64(headerLen)
	l.tableAt = l.namesAt + uint64(4*(l.files+1)) + l.namesLen
	l.postAt = l.tableAt + uint64(16*tris)

	tmp, err := os.CreateTemp(filepath.Dir(path), ".merge-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after the rename, nothing to remove
	if err := writeNames(tmp, segs, l); err != nil {
		tmp.Close()
		return err
	}
	if err := mergePostings(tmp, segs, present, l, yield); err != nil {
		tmp.Close()
		return err
	}
	// Not synced, as Write does not sync: a merged file cut short by a crash has no trailer and is refused by Open,
	// and the index is then built anew.
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// layout is where the merged segment's sections go.
type layout struct {
	files, tris              int
	namesLen                 uint64
	namesAt, tableAt, postAt uint64
}

// distinctTrigrams reads the segments' tables for the set of trigrams they hold (a bit each) and its size.
func distinctTrigrams(segs []*Segment, yield func()) (present []uint64, tris int, err error) {
	present = make([]uint64, 1<<24/64)
	for _, s := range segs {
		r := bufio.NewReaderSize(io.NewSectionReader(s.f, int64(s.tableAt), int64(16*s.tris)), 64<<10)
		var rb [16]byte
		for range s.tris {
			if _, err := io.ReadFull(r, rb[:]); err != nil {
				return nil, 0, fmt.Errorf("%w: %v", ErrCorrupt, err)
			}
			t := binary.LittleEndian.Uint32(rb[:])
			if t >= 1<<24 {
				return nil, 0, fmt.Errorf("%w: trigram out of range", ErrCorrupt)
			}
			if present[t>>6]&(1<<(t&63)) == 0 {
				present[t>>6] |= 1 << (t & 63)
				tris++
			}
		}
		yield()
	}
	return present, tris, nil
}

// writeNames writes the header, then each segment's name offsets (less its last, the end of its names) moved past
// the names before it, then the names as they are: both streamed from the segments' files.
func writeNames(f *os.File, segs []*Segment, l layout) error {
	w := bufio.NewWriterSize(f, 256<<10)
	w.Write(appendHeader(nil, l.files, l.tris, l.namesAt, l.tableAt, l.postAt))
	le := binary.LittleEndian
	var buf [4]byte
	at := uint32(0)
	for _, s := range segs {
		offs := bufio.NewReaderSize(io.NewSectionReader(s.f, int64(s.namesAt), int64(4*s.files)), 64<<10)
		for range s.files {
			if _, err := io.ReadFull(offs, buf[:]); err != nil {
				return fmt.Errorf("%w: %v", ErrCorrupt, err)
			}
			le.PutUint32(buf[:], at+le.Uint32(buf[:]))
			w.Write(buf[:])
		}
		at += uint32(s.namesLen)
	}
	le.PutUint32(buf[:], at)
	w.Write(buf[:])
	for _, s := range segs {
		if _, err := io.Copy(w, io.NewSectionReader(s.f, int64(s.namesAt)+int64(4*(s.files+1)), int64(s.namesLen))); err != nil {
			return fmt.Errorf("%w: %v", ErrCorrupt, err)
		}
	}
	return w.Flush()
}

// noRow is a cursor's trigram once its table is read to the end.
const noRow = 1 << 24

// cursor reads one segment's table and postings in order during a merge. It reads one row ahead: the next row's
// offset is where the current row's list ends, so a list is read, checked and copied as one piece.
type cursor struct {
	rows, post *bufio.Reader
	left       int    // rows not yet read
	tri, count uint32 // the current row (tri is noRow when none is left)
	start, end uint64 // the current row's list, in the segment's postings
	next       [16]byte
	hasNext    bool
	postLen    uint64 // the segment's postings' length
	read       uint64 // postings read so far
	base       uint32 // the segment's first file number in the merged segment
}

func newCursor(s *Segment, base uint32) (*cursor, error) {
	c := &cursor{
		rows:    bufio.NewReaderSize(io.NewSectionReader(s.f, int64(s.tableAt), int64(16*s.tris)), 16<<10),
		post:    bufio.NewReaderSize(io.NewSectionReader(s.f, int64(s.postAt), int64(s.end-s.postAt)), 32<<10),
		left:    s.tris,
		postLen: s.end - s.postAt,
		base:    base,
	}
	if err := c.readRow(); err != nil {
		return nil, err
	}
	return c, c.advance()
}

// readRow reads the row after the current one, if any.
func (c *cursor) readRow() error {
	if c.hasNext = c.left > 0; !c.hasNext {
		return nil
	}
	if _, err := io.ReadFull(c.rows, c.next[:]); err != nil {
		return fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	c.left--
	return nil
}

// advance moves to the next row.
func (c *cursor) advance() error {
	if !c.hasNext {
		c.tri = noRow
		return nil
	}
	le := binary.LittleEndian
	c.tri, c.count, c.start = le.Uint32(c.next[:]), le.Uint32(c.next[4:]), le.Uint64(c.next[8:])
	if err := c.readRow(); err != nil {
		return err
	}
	c.end = c.postLen
	if c.hasNext {
		c.end = le.Uint64(c.next[8:])
	}
	if c.start != c.read || c.end < c.start || c.end > c.postLen || c.end-c.start > uint64(c.count)*binary.MaxVarintLen32 {
		return fmt.Errorf("%w: posting lists out of order", ErrCorrupt)
	}
	return nil
}

// copyList appends the current row's list to w, its numbers moved past the earlier segments' files and following
// prev, the merged list's last number so far; it returns the new last number and the bytes written. Only the first
// number is encoded anew: the others are deltas within the segment, the same in the merged list, so they are
// checked (count varints of 32 bits, filling the list exactly) and copied as they are.
func (c *cursor) copyList(w *bufio.Writer, scratch *[]byte, prev uint32) (last uint32, n int, err error) {
	size := int(c.end - c.start)
	if cap(*scratch) < size {
		*scratch = make([]byte, size)
	}
	p := (*scratch)[:size]
	if _, err := io.ReadFull(c.post, p); err != nil {
		return 0, 0, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	c.read += uint64(size)
	if c.count == 0 {
		if size != 0 {
			return 0, 0, fmt.Errorf("%w: a damaged posting list", ErrCorrupt)
		}
		return prev, 0, nil
	}
	id, at, first, firstID := uint32(0), 0, 0, uint32(0)
	for i := range c.count {
		if at < len(p) && p[at] < 0x80 { // most deltas are one byte
			id += uint32(p[at])
			at++
		} else {
			d, m := binary.Uvarint(p[at:])
			if m <= 0 || d > 1<<32-1 {
				return 0, 0, fmt.Errorf("%w: a damaged posting list", ErrCorrupt)
			}
			id += uint32(d)
			at += m
		}
		if i == 0 {
			first, firstID = at, id
		}
	}
	if at != len(p) {
		return 0, 0, fmt.Errorf("%w: a damaged posting list", ErrCorrupt)
	}
	var head [binary.MaxVarintLen32]byte
	h := binary.PutUvarint(head[:], uint64(c.base+firstID-prev))
	w.Write(head[:h])
	w.Write(p[first:])
	return c.base + id, h + len(p) - first, nil
}

// mergePostings writes the merged table and postings, each front to back at its own offset, trigram by trigram
// in order; each trigram's list is the segments' lists one after another.
func mergePostings(f *os.File, segs []*Segment, present []uint64, l layout, yield func()) error {
	table := bufio.NewWriterSize(io.NewOffsetWriter(f, int64(l.tableAt)), 64<<10)
	post := bufio.NewWriterSize(io.NewOffsetWriter(f, int64(l.postAt)), 256<<10)
	cur := make([]*cursor, len(segs))
	heads := make([]uint32, len(segs)) // each cursor's trigram: the loop below scans these, not the cursors
	base := uint32(0)
	for k, s := range segs {
		c, err := newCursor(s, base)
		if err != nil {
			return err
		}
		cur[k], heads[k] = c, c.tri
		base += uint32(s.files)
	}
	var scratch, rb []byte
	var size uint64
	done := 0
	for wi, word := range present {
		for word != 0 {
			bit := uint32(bits.TrailingZeros64(word))
			word &^= 1 << bit
			tri := uint32(wi)<<6 | bit
			var count uint32
			start, prev := size, uint32(0)
			for k, h := range heads {
				if h != tri {
					continue
				}
				c := cur[k]
				last, n, err := c.copyList(post, &scratch, prev)
				if err != nil {
					return err
				}
				prev, size, count = last, size+uint64(n), count+c.count
				if err := c.advance(); err != nil {
					return err
				}
				heads[k] = c.tri
			}
			rb = appendRow(rb[:0], tri, count, start)
			table.Write(rb)
			if done++; done%(64<<10) == 0 {
				yield()
			}
		}
	}
	for _, c := range cur {
		if c.tri != noRow || c.read != c.postLen {
			return fmt.Errorf("%w: rows left over", ErrCorrupt)
		}
	}
	if err := table.Flush(); err != nil {
		return err
	}
	post.WriteString(magic)
	return post.Flush()
}
