// Package trigram is an on-disk index of which files contain which three-byte sequences, so that a search reads
// only the files that can match, as google/codesearch and sourcegraph/zoekt do. A query is a boolean formula over
// trigrams (google/codesearch's index.RegexpQuery turns a regular expression into one); the index answers with a
// superset of the files that match, and the caller verifies each candidate against its text.
//
// A segment is one file: the names of the files it covers, for each trigram a list of file numbers (delta- and
// varint-encoded), and a sorted table of the trigrams, a few varint bytes a row in blocks (table.go). It is written
// once (atomically) and read with pread: in memory stays only the table's block index, 8 bytes a block of 128
// rows, so its resident cost is a small fraction of its size. Builder writes a segment (builder.go), Segment reads
// one (segment.go) and answers a query (match.go), Merge joins several (merge.go).
//
// Guaranteed: no file containing a query's trigrams is left out. Not guaranteed: anything about files that
// changed after the segment was written; the caller tracks those.
package trigram

import (
	"encoding/binary"
	"errors"
)

// magic opens and closes a segment; its digit is the layout's version: a segment of another layout (version 1 had
// a table of 16-byte rows) is refused by Open as corrupt, and the index is built anew.
const magic = "RTRI2\n"

// A segment's layout: magic, the names (files+1 offsets into the names, then the names), the postings, the table
// (table.go), the block index, the footer, magic. The footer is at the end because a merge learns where the table
// starts only once the postings before it are written.
//
// footerLen is the footer: file count, trigram count, then the offsets of the postings, the table and the block
// index.
const footerLen = 4*2 + 8*3

// namesAt is where a segment's names start: after the magic.
const namesAt = uint64(len(magic))

// ErrCorrupt says a segment file is not one this package wrote, or was cut short.
var ErrCorrupt = errors.New("trigram: corrupt segment")

// appendFooter appends a segment's footer and the trailing magic.
func appendFooter(b []byte, files, tris int, postAt, tableAt, indexAt uint64) []byte {
	le := binary.LittleEndian
	b = le.AppendUint32(b, uint32(files))
	b = le.AppendUint32(b, uint32(tris))
	b = le.AppendUint64(b, postAt)
	b = le.AppendUint64(b, tableAt)
	b = le.AppendUint64(b, indexAt)
	return append(b, magic...)
}

func trigramOf(t string) uint32 {
	if len(t) < 3 {
		return 0
	}
	return uint32(t[0])<<16 | uint32(t[1])<<8 | uint32(t[2])
}
