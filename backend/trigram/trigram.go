// Package trigram is an on-disk index of which files contain which three-byte sequences, so that a search reads
// only the files that can match, as google/codesearch and sourcegraph/zoekt do. A query is a boolean formula over
// trigrams (google/codesearch's index.RegexpQuery turns a regular expression into one); the index answers with a
// superset of the files that match, and the caller verifies each candidate against its text.
//
// A segment is one file: the names of the files it covers, a sorted table of trigrams, and for each a list of file
// numbers, delta- and varint-encoded. It is written once (atomically) and read with pread: in memory stays only a
// sparse fence over the table, so its resident cost is a small fraction of its size. Builder writes a segment
// (builder.go), Segment reads one (segment.go) and answers a query (match.go), Merge joins several (merge.go).
//
// Guaranteed: no file containing a query's trigrams is left out. Not guaranteed: anything about files that
// changed after the segment was written; the caller tracks those.
package trigram

import (
	"encoding/binary"
	"errors"
)

const magic = "RTRI1\n"

// headerLen is a segment's header: magic, file count, trigram count, then the offsets of the names, the table
// and the postings.
const headerLen = len(magic) + 4*2 + 8*3

// ErrCorrupt says a segment file is not one this package wrote, or was cut short.
var ErrCorrupt = errors.New("trigram: corrupt segment")

// appendHeader appends a segment's header.
func appendHeader(b []byte, files, tris int, namesAt, tableAt, postAt uint64) []byte {
	le := binary.LittleEndian
	b = append(b, magic...)
	b = le.AppendUint32(b, uint32(files))
	b = le.AppendUint32(b, uint32(tris))
	b = le.AppendUint64(b, namesAt)
	b = le.AppendUint64(b, tableAt)
	return le.AppendUint64(b, postAt)
}

// appendRow appends a table row: the trigram, how many files hold it, where their list starts in the postings.
func appendRow(b []byte, tri, count uint32, off uint64) []byte {
	le := binary.LittleEndian
	b = le.AppendUint32(b, tri)
	b = le.AppendUint32(b, count)
	return le.AppendUint64(b, off)
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

func trigramOf(t string) uint32 {
	if len(t) < 3 {
		return 0
	}
	return uint32(t[0])<<16 | uint32(t[1])<<8 | uint32(t[2])
}
