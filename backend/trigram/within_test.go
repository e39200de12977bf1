package trigram

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// A posting list intersected with candidates as it is decoded, in pieces of any size, holds exactly the candidates
// the list holds: for lists of every length (a trigram in every file, in every 300th, in one), gaps of one byte
// and of several, and candidates few or many, at the list's start, end or beyond it. A list cut short is refused,
// unless the candidates end before the cut.
func TestWithinIsTheIntersection(t *testing.T) {
	t.Parallel()
	var b Builder
	for f := range 3000 {
		content := fmt.Sprintf("every file %d", f)
		if f%300 == 7 {
			content += " sparse" // gaps of 300: two-byte varints
		}
		if f == 2999 {
			content += " lastone"
		}
		b.Add(fmt.Sprintf("f%04d", f), []byte(content))
	}
	s := writeSegment(t, &b)
	rng := rand.New(rand.NewPCG(3, 4))
	candidates := [][]uint32{{0}, {2999}, {0, 1, 2}, {7, 307, 2707}, {2998, 2999, 3000, 5000}}
	for _, n := range []int{5, 50, 1500} {
		ids := map[uint32]bool{}
		for range n {
			ids[uint32(rng.IntN(3100))] = true
		}
		var c []uint32
		for id := range ids {
			c = append(c, id)
		}
		slices.Sort(c)
		candidates = append(candidates, c)
	}
	for _, word := range []string{"eve", "spa", "tone", "zzz"} {
		r, ok := s.row(trigramOf(word[:3]))
		if !ok {
			t.Fatalf("%q: row not read", word)
		}
		full, _ := s.decode(r)
		for _, ids := range candidates {
			var want []uint32
			for _, id := range ids {
				if _, found := slices.BinarySearch(full, id); found {
					want = append(want, id)
				}
			}
			for _, piece := range []int{5, 6, 7, 64, listPiece} {
				got, ok := s.within(ids, r, make([]byte, piece))
				if !ok || !slices.Equal(got, want) {
					t.Errorf("%q (%d files), %d candidates, pieces of %d bytes: %v (%v), want %v", word, len(full), len(ids), piece, got, ok, want)
				}
			}
		}
	}

	// A list cut short: refused when the candidates reach past the cut, read as far as they go when not.
	r, _ := s.row(trigramOf("eve"))
	r.stop = r.start + 100 // the first 100 files' gaps, a byte each
	if got, ok := s.within([]uint32{5, 2000}, r, make([]byte, 64)); ok {
		t.Errorf("a list cut short was read: %v", got)
	}
	if got, ok := s.within([]uint32{5, 50}, r, make([]byte, 64)); !ok || !slices.Equal(got, []uint32{5, 50}) {
		t.Errorf("candidates before the cut: %v %v", got, ok)
	}
}
