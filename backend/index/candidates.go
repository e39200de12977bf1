package index

import (
	"context"
	"math/bits"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/rooted-dev/rooted/backend/search"
	"github.com/rooted-dev/rooted/backend/walk"
)

// WalkCandidates yields the files of the list in memory that the trigram index says may match opt, and nothing
// else: the files whose numbers the posting lists give, the files changed since the build (the watcher's
// reports, kept as a set) and the files the index does not cover (listed once per list and build). Each one's
// verdict is an array read; the files between two candidates are counted, not visited, so a search costs what its
// candidates do, whatever the project's size. It declines (ok false) where it could not give exactly a full
// scan's files: no list in memory yet, no index, a list not in path order.
func (x *Index) WalkCandidates(ctx context.Context, dir string, opt search.Options, emit func(search.File, int) bool) (rest int, ok bool, err error) {
	if x.perFile || !x.live() {
		return 0, false, nil
	}
	dir = strings.Trim(filepath.ToSlash(filepath.Clean(dir)), "/")
	if dir == "." {
		dir = ""
	}
	if explicit(x.root, dir, opt.IncludeHidden, opt.IncludeIgnored) {
		return 0, false, nil // searched in full, as Walk does
	}
	x.mu.RLock()
	l := x.lists[listKey{opt.IncludeHidden, opt.IncludeIgnored}]
	x.mu.RUnlock()
	if l == nil || !l.sorted {
		return 0, false, nil
	}
	if x.tri.checking() {
		// An index kept from an earlier opening, being checked: the files the check has not reached are each
		// stat'ed by the search's walk (Narrow), which the candidates alone would leave out.
		return 0, false, nil
	}
	c := x.tri.keep(opt)
	if c == nil {
		return 0, false, nil // Narrow asks for a build
	}
	if dir != "" {
		if err := checkDir(x.root, dir); err != nil {
			return 0, true, err
		}
	}
	t := l.tables(c)
	lo, hi := l.span(dir)
	var ords []int32
	in := func(o int32) {
		if o >= int32(lo) && o < int32(hi) {
			ords = append(ords, o)
		}
	}
	for w, word := range c.bits {
		for word != 0 {
			g := w<<6 | bits.TrailingZeros64(word)
			word &= word - 1
			if g < len(t.ords) && t.ords[g] >= 0 {
				in(t.ords[g])
			}
		}
	}
	if c.settled && !opt.IncludeIgnored {
		// Not a search of ignored files: the watcher does not report their changes, so their text is not kept.
		x.countReads(l, ords)
	}
	if lit := gramLiteral(opt); lit != nil && len(ords) <= x.hotCandidates {
		// Only a search of few candidates: a broad one would hold the lock a lookup a candidate.
		ords = x.ruleOutByGrams(l, ords, lit)
	}
	for _, o := range t.uncovered {
		in(o)
	}
	for rel := range c.dirty {
		// Covered files changed since the build have their bit set; a binary one is found by its name.
		if o, found := l.find(rel); found && t.nums[o] == binaryFile {
			in(int32(o))
		}
	}
	slices.Sort(ords)
	ords = slices.Compact(ords)
	prev := lo // the first file not yet yielded or counted
	for i, o := range ords {
		if i&1023 == 0 && ctx.Err() != nil {
			return 0, true, ctx.Err()
		}
		f := search.File{Entry: walk.Entry{Rel: l.names[o], Name: l.name(int(o))}, Ordinal: int(o) + 1}
		if !emit(f, t.ruledOut(prev, int(o))) {
			return 0, true, nil
		}
		prev = int(o) + 1
	}
	return t.ruledOut(prev, hi), true, nil
}

// listTables are what a list of files knows of one trigram build, made once per list and build: each name's
// number in the index, the other way round, the places of the files it does not cover, and where the binary
// files are (they are neither read nor counted as searched).
type listTables struct {
	built     int
	nums      []int32 // by place in the list: the file's number in the index, notCovered or binaryFile
	ords      []int32 // by number in the index: the file's place in the list, or -1
	uncovered []int32 // places of the files numbered notCovered
	binary    []uint64
	binBefore []int32 // binary files before each word of binary
}

// tables returns the list's tables for the build c is of.
func (l *fileList) tables(c *candidates) *listTables {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.t != nil && l.t.built == c.built {
		return l.t
	}
	t := &listTables{built: c.built, nums: make([]int32, len(l.names)), ords: make([]int32, c.files)}
	for i := range t.ords {
		t.ords[i] = -1
	}
	t.binary = make([]uint64, (len(l.names)+63)/64)
	// Both the list and the index's names are in path order: one pass over both numbers the list, where a binary
	// search a name took a second on a 460k-file project, and a first build's tables are made anew as it lands.
	ci, bi := 0, 0
	number := func(rel string) int32 {
		if !l.sorted {
			return c.number(rel)
		}
		for ci < c.files && comparePaths(c.covered.bytes(ci), rel) < 0 {
			ci++
		}
		for bi < c.binary.Len() && comparePaths(c.binary.bytes(bi), rel) < 0 {
			bi++
		}
		switch {
		case bi < c.binary.Len() && string(c.binary.bytes(bi)) == rel:
			return binaryFile
		case ci < c.files && string(c.covered.bytes(ci)) == rel:
			return int32(ci)
		}
		return notCovered
	}
	for i, rel := range l.names {
		n := number(rel)
		t.nums[i] = n
		switch {
		case n == notCovered:
			t.uncovered = append(t.uncovered, int32(i))
		case n == binaryFile:
			t.binary[i>>6] |= 1 << (i & 63)
		default:
			t.ords[n] = int32(i)
		}
	}
	t.binBefore = make([]int32, len(t.binary)+1)
	for w, word := range t.binary {
		t.binBefore[w+1] = t.binBefore[w] + int32(bits.OnesCount64(word))
	}
	l.t = t
	return t
}

// binariesBefore counts the binary files at places below i.
func (t *listTables) binariesBefore(i int) int {
	n := int(t.binBefore[i>>6])
	if r := i & 63; r != 0 {
		n += bits.OnesCount64(t.binary[i>>6] & (1<<r - 1))
	}
	return n
}

// ruledOut counts the files at places [from, to) a search counts as searched without reading: all but binary ones.
func (t *listTables) ruledOut(from, to int) int {
	if to <= from {
		return 0
	}
	return to - from - (t.binariesBefore(to) - t.binariesBefore(from))
}

// comparePaths orders slash paths as a sorted walk yields them: folder by folder, each folder's entries by name
// ("a/b" before "a-c", since the folder "a" sorts before the name "a-c").
func comparePaths[A, B ~string | ~[]byte](a A, b B) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] == b[i] {
			continue
		}
		switch {
		case a[i] == '/':
			return -1
		case b[i] == '/':
			return 1
		case a[i] < b[i]:
			return -1
		}
		return 1
	}
	return len(a) - len(b)
}

// inPathOrder reports whether names are in a sorted walk's order, which span and find rely on.
func inPathOrder(names []string) bool {
	for i := 1; i < len(names); i++ {
		if comparePaths(names[i-1], names[i]) >= 0 {
			return false
		}
	}
	return true
}

// span is the places of the files under dir ("": all): in path order they are contiguous.
func (l *fileList) span(dir string) (lo, hi int) {
	if dir == "" {
		return 0, len(l.names)
	}
	prefix := dir + "/"
	lo = sort.Search(len(l.names), func(i int) bool { return comparePaths(l.names[i], prefix) >= 0 })
	hi = lo + sort.Search(len(l.names)-lo, func(i int) bool { return !strings.HasPrefix(l.names[lo+i], prefix) })
	return lo, hi
}

// find returns rel's place in the list.
func (l *fileList) find(rel string) (int, bool) {
	return slices.BinarySearchFunc(l.names, rel, comparePaths[string, string])
}
