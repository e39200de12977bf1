package trigram

import (
	"cmp"
	"slices"

	"github.com/google/codesearch/index"
)

// Match returns the numbers of the files that may satisfy q, and all=true when q does not narrow anything (every
// file may match).
func (s *Segment) Match(q *index.Query) (ids []uint32, all bool) {
	switch q.Op {
	case index.QAll:
		return nil, true
	case index.QNone:
		return nil, false
	case index.QAnd:
		// The rows first, then the lists from the shortest: a trigram no file holds ends the lookup before any
		// list is read, and the longest lists (on a big project, hundreds of thousands of files for "Err" or
		// "ing") are read last, if at all. A literal in no file took 155 ms at 460k files read in query order.
		rows := make([]where, 0, len(q.Trigram))
		for _, t := range q.Trigram {
			r, ok := s.row(trigramOf(t))
			if !ok {
				continue // unreadable: it narrows nothing
			}
			if r.count == 0 {
				return nil, false
			}
			rows = append(rows, r)
		}
		slices.SortFunc(rows, func(a, b where) int { return cmp.Compare(a.count, b.count) })
		all = true
		var buf []byte // the pieces of the lists after the first, read into one buffer
		for _, r := range rows {
			if all {
				l, ok := s.decode(r)
				if !ok {
					continue
				}
				ids, all = l, false
			} else {
				if buf == nil {
					buf = make([]byte, listPiece)
				}
				l, ok := s.within(ids, r, buf)
				if !ok {
					continue
				}
				ids = l
			}
			if len(ids) == 0 {
				return nil, false
			}
		}
		for _, sub := range q.Sub {
			l, subAll := s.Match(sub)
			if subAll {
				continue
			}
			ids, all = intersect(ids, all, l), false
			if len(ids) == 0 {
				return nil, false
			}
		}
		return ids, all
	case index.QOr:
		for _, t := range q.Trigram {
			l, ok := s.posting(trigramOf(t))
			if !ok {
				return nil, true
			}
			ids = union(ids, l)
		}
		for _, sub := range q.Sub {
			l, subAll := s.Match(sub)
			if subAll {
				return nil, true
			}
			ids = union(ids, l)
		}
		return ids, false
	}
	return nil, true
}

func intersect(a []uint32, aAll bool, b []uint32) []uint32 {
	if aAll {
		return b
	}
	out := a[:0:0]
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	return out
}

func union(a, b []uint32) []uint32 {
	out := make([]uint32, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			out = append(out, a[i])
			i++
		case a[i] > b[j]:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	return append(append(out, a[i:]...), b[j:]...)
}
