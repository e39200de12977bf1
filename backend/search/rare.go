package search

import "bytes"

// literalFinder finds a literal by scanning for its rarest byte (as ripgrep's memchr heuristics do) and checking
// the whole needle around each hit. bytes.Index keys on the first byte, and for a needle like "func" that is a
// byte source code is full of, so it stops at far more false candidates.
type literalFinder struct {
	needle []byte
	rare   byte
	at     int // index of rare in needle
}

func newLiteralFinder(needle []byte) *literalFinder {
	f := &literalFinder{needle: needle}
	best := 256
	for i, c := range needle {
		if r := byteRank[c]; r < best {
			best, f.rare, f.at = r, c, i
		}
	}
	return f
}

// index returns the first occurrence of the needle in b, or -1.
func (f *literalFinder) index(b []byte) int {
	n := len(f.needle)
	if n == 0 {
		return 0
	}
	if n == 1 {
		return bytes.IndexByte(b, f.rare)
	}
	for off := f.at; off < len(b); {
		i := bytes.IndexByte(b[off:], f.rare)
		if i < 0 {
			return -1
		}
		start := off + i - f.at
		if start+n <= len(b) && bytes.Equal(b[start:start+n], f.needle) {
			return start
		}
		off += i + 1
	}
	return -1
}

// byteRank orders bytes by how common they are in source code and prose, most common highest; bytes not listed
// (rare punctuation, control bytes, non-ASCII) rank lowest, as good anchors. The order is approximate: it only
// has to tell "e t space" from "q z X".
var byteRank = func() [256]int {
	var r [256]int
	common := " etaoinsrlcdhu\nmpf\tgy.b,w_v()\";=k/-x:{}*0'1>TSEAIC2RNOL<PDMF&[]q#B3j!H45z6U8G9V7W+|K%YJQXZ$?\\@^`~"
	for i := range r {
		r[i] = 0
	}
	for i := 0; i < len(common); i++ {
		r[common[i]] = len(common) - i
	}
	return r
}()
