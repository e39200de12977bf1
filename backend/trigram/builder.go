package trigram

import (
	"bufio"
	"encoding/binary"
	"os"
	"path/filepath"
)

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
	table   []byte      // Write's table, encoded as the postings are
	index   []byte      // Write's block index
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

// Write stores the segment at path: written to a temporary file in the same folder, then renamed.
func (b *Builder) Write(path string) error {
	b.sortParts()
	tmp, err := os.CreateTemp(filepath.Dir(path), ".segment-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	w := bufio.NewWriterSize(tmp, 1<<20)
	var names []byte
	nameOff := make([]uint32, 0, len(b.names)+1)
	for _, n := range b.names {
		nameOff = append(nameOff, uint32(len(names)))
		names = append(names, n...)
	}
	nameOff = append(nameOff, uint32(len(names)))

	w.WriteString(magic)
	// Sections are encoded into out and handed to the writer in large pieces: a Write call a varint (most are one
	// byte) took as long as the build's reading of the files.
	out := make([]byte, 0, 64<<10)
	flush := func() {
		if len(out) >= 60<<10 {
			w.Write(out)
			out = out[:0]
		}
	}
	for _, o := range nameOff {
		out = binary.LittleEndian.AppendUint32(out, o)
		flush()
	}
	w.Write(out)
	out = out[:0]
	w.Write(names)
	tw, post := b.writePostings(w, out[:0])
	b.table, b.index = tw.out, tw.index
	postAt := namesAt + uint64(4*len(nameOff)) + uint64(len(names))
	tableAt := postAt + post
	w.Write(tw.out)
	w.Write(tw.index)
	w.Write(appendFooter(nil, len(b.names), tw.rows, postAt, tableAt, tableAt+uint64(len(tw.out))))
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

// writePostings writes the posting lists to w, encoded in out's space, and returns the table, encoded beside them
// in memory (a few bytes a trigram) to be written after them, and the postings' length.
func (b *Builder) writePostings(w *bufio.Writer, out []byte) (tw tableWriter, post uint64) {
	tw = tableWriter{out: b.table[:0], index: b.index[:0]}
	for _, part := range b.parts {
		last, prev := ^uint32(0), uint32(0)
		var count uint32
		var size uint64 // the current list's bytes already handed to w
		start := len(out)
		for _, p := range part {
			tri, id := uint32(p>>32), uint32(p)
			if tri != last {
				if count > 0 {
					tw.add(last, count, size+uint64(len(out)-start))
				}
				last, prev, count, size, start = tri, 0, 0, 0, len(out)
			}
			out = binary.AppendUvarint(out, uint64(id-prev))
			prev = id
			count++
			if len(out) >= 60<<10 {
				size += uint64(len(out) - start)
				post += uint64(len(out))
				w.Write(out)
				out, start = out[:0], 0
			}
		}
		if count > 0 {
			tw.add(last, count, size+uint64(len(out)-start))
		}
	}
	post += uint64(len(out))
	w.Write(out)
	return tw, post
}
