package trigram

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Merge writes one segment at path holding the files of segs in order (file number i of segs[k] becomes the sum of
// the earlier segments' file counts plus i), so that a lookup reads one table and one posting list instead of one
// of each per segment. It streams: each segment's table and postings are read once, front to back, through small
// buffers, and the merged postings are written as they are produced, so its memory is the buffers and the block
// index (8 bytes a block of the merged table), whatever the segments' size. The merged table goes to an unnamed
// scratch file beside it meanwhile (it follows the postings, whose length is known only at their end; it is a few
// bytes a trigram) and is copied behind them. yield is called now and then (background work waits there for
// searches). The merged file is written under a temporary name and renamed: a merge cut short leaves segs as they
// were and no file at path.
func Merge(path string, segs []*Segment, yield func()) error {
	l := layout{}
	for _, s := range segs {
		l.files += s.files
		l.namesLen += s.namesLen
	}
	if l.namesLen > 1<<32-1 || l.files > 1<<32-2 {
		return errors.New("trigram: merged segment too large")
	}
	l.postAt = namesAt + uint64(4*(l.files+1)) + l.namesLen

	tmp, err := os.CreateTemp(filepath.Dir(path), ".merge-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after the rename, nothing to remove
	table, err := os.CreateTemp(filepath.Dir(path), ".merge-table-*")
	if err != nil {
		tmp.Close()
		return err
	}
	os.Remove(table.Name()) // unnamed: nothing is left behind whatever happens
	defer table.Close()
	if err := writeNames(tmp, segs); err != nil {
		tmp.Close()
		return err
	}
	yield()
	if err := mergePostings(tmp, table, segs, l, yield); err != nil {
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
	files    int
	namesLen uint64
	postAt   uint64
}

// writeNames writes the magic, then each segment's name offsets (less its last, the end of its names) moved past
// the names before it, then the names as they are: both streamed from the segments' files.
func writeNames(f *os.File, segs []*Segment) error {
	w := bufio.NewWriterSize(f, 256<<10)
	w.WriteString(magic)
	le := binary.LittleEndian
	var buf [4]byte
	at := uint32(0)
	for _, s := range segs {
		offs := bufio.NewReaderSize(io.NewSectionReader(s.f, int64(namesAt), int64(4*s.files)), 64<<10)
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
		if _, err := io.Copy(w, io.NewSectionReader(s.f, int64(namesAt)+int64(4*(s.files+1)), int64(s.namesLen))); err != nil {
			return fmt.Errorf("%w: %v", ErrCorrupt, err)
		}
	}
	return w.Flush()
}

// noRow is a cursor's trigram once its table is read to the end.
const noRow = 1 << 24

// cursor reads one segment's table and postings in order during a merge.
type cursor struct {
	rows    *tableReader
	post    *bufio.Reader
	row     tableRow                    // the current row (row.tri is noRow when none is left)
	postLen uint64                      // the segment's postings' length
	read    uint64                      // postings read so far
	base    uint32                      // the segment's first file number in the merged segment
	head    [binary.MaxVarintLen32]byte // a list's first number, encoded anew (on the stack, it escaped to the heap)
}

func newCursor(s *Segment, base uint32) (*cursor, error) {
	c := &cursor{
		rows:    newTableReader(s, s.f, 16<<10),
		post:    bufio.NewReaderSize(io.NewSectionReader(s.f, int64(s.postAt), int64(s.end-s.postAt)), 32<<10),
		postLen: s.end - s.postAt,
		base:    base,
	}
	return c, c.advance()
}

// advance moves to the next row, whose list must follow the one before it.
func (c *cursor) advance() error {
	r, ok, err := c.rows.next()
	if err != nil {
		return err
	}
	if !ok {
		c.row = tableRow{tri: noRow}
		return nil
	}
	if r.off != c.read {
		return fmt.Errorf("%w: posting lists out of order", ErrCorrupt)
	}
	c.row = r
	return nil
}

// copyList appends the current row's list to w, its numbers moved past the earlier segments' files and following
// prev, the merged list's last number so far; it returns the new last number and the bytes written. Only the first
// number is encoded anew: the others are deltas within the segment, the same in the merged list, so they are
// checked (count varints of 32 bits, filling the list exactly) and copied as they are.
func (c *cursor) copyList(w *bufio.Writer, scratch *[]byte, prev uint32) (last uint32, n int, err error) {
	size := int(c.row.size)
	if cap(*scratch) < size {
		*scratch = make([]byte, size)
	}
	p := (*scratch)[:size]
	if _, err := io.ReadFull(c.post, p); err != nil {
		return 0, 0, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	c.read += uint64(size)
	if c.row.count == 0 {
		if size != 0 {
			return 0, 0, fmt.Errorf("%w: a damaged posting list", ErrCorrupt)
		}
		return prev, 0, nil
	}
	id, at, first, firstID := uint32(0), 0, 0, uint32(0)
	for i := range c.row.count {
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
	h := binary.PutUvarint(c.head[:], uint64(c.base+firstID-prev))
	w.Write(c.head[:h])
	w.Write(p[first:])
	return c.base + id, h + len(p) - first, nil
}

// mergePostings writes the merged postings at l.postAt, trigram by trigram in order (each trigram's list the
// segments' lists one after another), and the table beside them into scratch; then the table, the block index and
// the footer after the postings.
func mergePostings(f, scratch *os.File, segs []*Segment, l layout, yield func()) error {
	tw := tableWriter{w: scratch, out: make([]byte, 0, 64<<10)}
	post := bufio.NewWriterSize(io.NewOffsetWriter(f, int64(l.postAt)), 256<<10)
	cur := make([]*cursor, len(segs))
	heads := make([]uint32, len(segs)) // each cursor's trigram: the loop below scans these, not the cursors
	base := uint32(0)
	for k, s := range segs {
		c, err := newCursor(s, base)
		if err != nil {
			return err
		}
		cur[k], heads[k] = c, c.row.tri
		base += uint32(s.files)
	}
	var buf []byte
	var size uint64
	for {
		tri := uint32(noRow)
		for _, h := range heads {
			tri = min(tri, h)
		}
		if tri == noRow {
			break
		}
		var count uint32
		start, prev := size, uint32(0)
		for k, h := range heads {
			if h != tri {
				continue
			}
			c := cur[k]
			last, n, err := c.copyList(post, &buf, prev)
			if err != nil {
				return err
			}
			prev, size, count = last, size+uint64(n), count+c.row.count
			if err := c.advance(); err != nil {
				return err
			}
			heads[k] = c.row.tri
		}
		tw.add(tri, count, size-start)
		if tw.rows%(4<<10) == 0 {
			yield()
		}
	}
	for _, c := range cur {
		if c.read != c.postLen {
			return fmt.Errorf("%w: postings left over", ErrCorrupt)
		}
	}
	if err := post.Flush(); err != nil {
		return err
	}
	if err := tw.flush(); err != nil {
		return err
	}
	if tw.pos > 1<<32-1 {
		return errors.New("trigram: merged table too large")
	}
	tableAt := l.postAt + size
	w := bufio.NewWriterSize(io.NewOffsetWriter(f, int64(tableAt)), 256<<10)
	if _, err := io.Copy(w, io.NewSectionReader(scratch, 0, int64(tw.pos))); err != nil {
		return err
	}
	w.Write(tw.index)
	w.Write(appendFooter(nil, l.files, tw.rows, l.postAt, tableAt, tableAt+tw.pos))
	return w.Flush()
}
