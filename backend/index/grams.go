package index

import (
	"encoding/binary"
	"math/bits"
	"slices"

	"github.com/rooted-dev/rooted/backend/search"
)

// A large file holds nearly every trigram, so the trigram index names it a candidate of nearly every search: on the
// 460k-file corpus, a minified trace viewer (2.6 MB in each of 40 copies) was 105 of the 164 MB a rare literal's
// full count read, without once holding the literal. For such a file that searches keep reading, the index keeps
// a filter of the four-byte strings it holds (one bit each, hashed: about a tenth of the file's size), and a
// literal with a four-byte string the filter lacks is ruled out without reading the file. The filter is of the
// file's text when read, kept only if nothing changed meanwhile, and dropped with it (as the text cache is).
type gramFilter []uint64

// gramMin is the smallest file given a filter: below it, reading the file costs about what the filter would save.
const gramMin = 256 << 10

// gramShare: the filters take at most this part of the budget.
const gramShare = 8

func gramHash(g uint32) uint32 { return g * 0x9E3779B1 }

// gramBits is the size of the filter of a file of size bytes: 2^k bits, at least size/2. Of the Go tree's largest
// files, 1% (generated rewrite rules) to 15% (unicode tables) of the bits are set, 12% in the minified trace
// viewer: a literal of eight bytes, five four-byte strings, passes a filter that lacks it at most about once in 10^4.
func gramBits(size int) int {
	n := 64
	for n < size/2 {
		n <<= 1
	}
	return n
}

// newGramFilter is the filter of data.
func newGramFilter(data []byte) gramFilter {
	n := gramBits(len(data))
	f := make(gramFilter, n/64)
	shift := 32 - bits.TrailingZeros(uint(n))
	for i := 0; i+4 <= len(data); i++ {
		h := gramHash(binary.LittleEndian.Uint32(data[i:])) >> shift
		f[h>>6] |= 1 << (h & 63)
	}
	return f
}

// mayHold reports whether the file may hold lit: false only when one of its four-byte strings is not in the file.
func (f gramFilter) mayHold(lit []byte) bool {
	shift := 32 - bits.TrailingZeros(uint(len(f)*64))
	for i := 0; i+4 <= len(lit); i++ {
		h := gramHash(binary.LittleEndian.Uint32(lit[i:])) >> shift
		if f[h>>6]&(1<<(h&63)) == 0 {
			return false
		}
	}
	return true
}

func (f gramFilter) size() int64 { return int64(len(f)) * 8 }

// gramLiteral is the text every match of opt holds byte for byte, when a filter can rule a file out by it: a
// literal search of four bytes or more, case-sensitive.
func gramLiteral(opt search.Options) []byte {
	if opt.Regex || opt.CaseInsensitive || len(opt.Query) < 4 {
		return nil
	}
	return []byte(opt.Query)
}

// haveGrams reports whether rel has a filter.
func (x *Index) haveGrams(rel string) bool {
	x.mu.RLock()
	defer x.mu.RUnlock()
	_, ok := x.grams[rel]
	return ok
}

// keepGrams keeps the filter of a hot file's text read at epoch, unless it changed since or the filters' share
// of the budget is spent.
func (x *Index) keepGrams(rel string, data []byte, epoch uint64) {
	x.mu.RLock()
	_, have := x.grams[rel]
	full := x.gramBytes+int64(gramBits(len(data))/8) > x.budget/gramShare
	x.mu.RUnlock()
	if have || full {
		return
	}
	f := newGramFilter(data)
	x.mu.Lock()
	if _, have := x.grams[rel]; !have && x.epoch == epoch && x.gramBytes+f.size() <= x.budget/gramShare {
		if x.grams == nil {
			x.grams = map[string]gramFilter{}
		}
		x.grams[rel] = f
		x.gramBytes += f.size()
	}
	x.mu.Unlock()
}

// ruleOutByGrams drops from ords (places in l) the files whose filter lacks one of lit's four-byte strings; they
// are counted as searched, as the files the trigram index rules out are.
func (x *Index) ruleOutByGrams(l *fileList, ords []int32, lit []byte) []int32 {
	x.mu.RLock()
	defer x.mu.RUnlock()
	if len(x.grams) == 0 {
		return ords
	}
	return slices.DeleteFunc(ords, func(o int32) bool {
		f, ok := x.grams[l.names[o]]
		return ok && !f.mayHold(lit)
	})
}
