package index

import "sort"

// nameTable is a list of slash paths in path order (a sorted walk's), held in one byte slab with an offset each:
// on a big project a string per file costs a header and an allocation each, and a map of them twice that again
// (at 460k files, tens of MiB of heap for what is 20 MiB of names). A name is found by binary search.
type nameTable struct {
	data []byte
	off  []uint32 // name i is data[off[i]:off[i+1]]; len(off) is one more than the names
}

// add appends rel, which must sort after every name already added.
func (t *nameTable) add(rel string) {
	if t.off == nil {
		t.off = []uint32{0}
	}
	t.data = append(t.data, rel...)
	t.off = append(t.off, uint32(len(t.data)))
}

// Len is how many names the table holds.
func (t *nameTable) Len() int {
	if t == nil || len(t.off) == 0 {
		return 0
	}
	return len(t.off) - 1
}

// bytes is name i, in the table's own memory.
func (t *nameTable) bytes(i int) []byte { return t.data[t.off[i]:t.off[i+1]] }

// find returns rel's place in the table.
func (t *nameTable) find(rel string) (int, bool) {
	n := t.Len()
	i := sort.Search(n, func(i int) bool { return comparePaths(t.bytes(i), rel) >= 0 })
	return i, i < n && string(t.bytes(i)) == rel
}

// compact gives back the room the slices grew into.
func (t *nameTable) compact() {
	t.data = append([]byte(nil), t.data...)
	t.off = append([]uint32(nil), t.off...)
}
