package index

import (
	"context"
	"io/fs"
	"os"
	"path"
	"slices"

	"github.com/rooted-dev/rooted/backend/search"
	"github.com/rooted-dev/rooted/backend/walk"
)

// A trigram index kept from an earlier opening (saved.go) serves searches as soon as it is loaded: through
// savedSource while the watcher's first walk runs, then through the Index while the check of the tree against its
// manifest runs. On a 460k-file project the two are seconds each, which the first search used to wait for.
//
// Invariant: a search issued before the check ends returns what a full scan of the disk would, at that moment. A file
// changed, created or removed while the project was closed is found, or not found, as it is now. It holds because a
// search reads every file to which the index does not give a verdict of CannotMatch or BinaryFile (it reads it as
// it is now, so no match is stale), and the index gives one only where it knows the file is as the build saw it:
//
//   - a file the manifest does not know (created since, or ignored at the build) is not covered: read;
//   - a file the check has reached is read when its identity differed (the check adds it to the changed files) or
//     the watcher has reported it since (the watcher is up before the check begins, so a change after the check's
//     stat is reported);
//   - a file the check has not reached yet is stat'ed by the search itself, one stat from its folder's descriptor
//     and no read, and compared with the manifest as the check would: read when it differs or cannot be stat'ed;
//   - a file removed is in no walk, so in no result.
//
// Before the watcher is up the check has not begun, so a search (savedSource) stats every file it would rule out.
//
// The check tells searches what it has found checkEvery files at a time, its changed files and the files it has
// reached together, under the narrower's lock; a search takes both at its start (keep). When the check ends, the
// files of the manifest it did not meet (removed, or ignored now) are noted as changed too, and the index is in use
// as after a build.

// checkEvery is how many files the check stats before it tells searches of them: a search stats the files the check
// has not reached, so more often is less for a search to do, and each telling takes the narrower's lock.
const checkEvery = 4096

// checkState is the check of a saved index in use, by its files' numbers (covered's and binary's).
type checkState struct {
	ids, binIDs   []fileID // the manifest's identities of the files
	seen, seenBin []uint64 // checked: a change found is among the narrower's changed files
}

// checkView is what a search knows of the check at its start.
type checkView struct {
	ids, binIDs   []fileID // the check's own, never written
	seen, seenBin []uint64 // copies: the check goes on meanwhile
}

func (s *checkState) view() *checkView {
	return &checkView{ids: s.ids, binIDs: s.binIDs, seen: slices.Clone(s.seen), seenBin: slices.Clone(s.seenBin)}
}

func bit(set []uint64, i int) bool { return set[i>>6]&(1<<(i&63)) != 0 }

// recheck is v, the index's verdict on the file rel numbered num, or MayMatch when the check had not reached the
// file at the search's start and its identity now (now) is not the manifest's.
func (c *candidates) recheck(v search.Verdict, num int32, rel string, now func() (fileID, bool)) search.Verdict {
	if v == search.MayMatch || c.check == nil {
		return v
	}
	var want fileID
	switch {
	case num >= 0:
		if bit(c.check.seen, int(num)) {
			return v
		}
		want = c.check.ids[num]
	case num == binaryFile:
		i, ok := c.binary.find(rel)
		if !ok || bit(c.check.seenBin, i) {
			return v
		}
		want = c.check.binIDs[i]
	default:
		return v
	}
	if got, ok := now(); ok && want != unknownID && got == want {
		return v
	}
	return search.MayMatch
}

// byNameNow is the verdict on f looked up by its name, stat'ing it (now) when the check has not reached it.
func (c *candidates) byNameNow(f search.File, now func() (fileID, bool)) search.Verdict {
	if c.dirty[f.Rel] {
		return search.MayMatch
	}
	num := c.number(f.Rel)
	return c.recheck(c.verdict(num, f.Rel), num, f.Rel, now)
}

// identityNow stats the file f of a search's walk as the check does: from its folder's descriptor, the walk's or
// one the index keeps open (dirs, nil: none). False when it cannot, and for a link (which the check stats through
// the root): the search reads those instead.
func identityNow(f search.File, dirs func(dir string) *walk.Dir) (fileID, bool) {
	if f.Type&fs.ModeSymlink != 0 {
		return unknownID, false
	}
	d, name := f.Dir, f.Name
	if d == nil {
		if dirs == nil {
			return unknownID, false
		}
		if d = dirs(path.Dir(f.Rel)); d == nil {
			return unknownID, false
		}
		defer d.Release()
		name = path.Base(f.Rel)
	}
	id, err := d.Identity(name)
	return id, err == nil
}

// savedSource serves the searches of a project whose index was kept from an earlier opening while the index is
// starting (its watcher's first walk: seconds on a big project): the disk, walked and read as a one-shot search
// does, narrowed by the index kept with every file it would rule out stat'ed and compared with the manifest, since
// the check has not begun. Nothing here depends on the watcher: each verdict is of the file as it is now.
type savedSource struct {
	search.DiskSource
	tri *narrower
}

// Narrow: see savedSource.
func (s savedSource) Narrow(_ context.Context, opt search.Options) func(search.File) search.Verdict {
	c := s.tri.keep(opt)
	if c == nil {
		return nil
	}
	return func(f search.File) search.Verdict {
		return c.byNameNow(f, func() (fileID, bool) { return identityNow(f, nil) })
	}
}

// checking reports whether a saved index in use is being checked against the tree.
func (n *narrower) checking() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.check != nil
}

// useSaved puts a saved index found at opening in use at once, every file of it unchecked: until the check
// (startCheck) reaches a file, a search stats it. n.mu is not held; n is not yet shared.
func (n *narrower) useSaved(s *saved) {
	covered := &nameTable{data: s.m.Covered.Data, off: s.m.Covered.Off}
	binary := &nameTable{data: s.m.Binary.Data, off: s.m.Binary.Off}
	n.check = &checkState{
		ids: s.m.CoveredIDs, binIDs: s.m.BinaryIDs,
		seen: make([]uint64, (covered.Len()+63)/64), seenBin: make([]uint64, (binary.Len()+63)/64),
	}
	n.segs, n.segPaths, n.covered, n.binary = s.segs, s.paths, covered, binary
	n.building = true // no build starts until the check has ended
	n.gen = max(n.gen, s.m.Gen)
	n.built++
	n.stats = NarrowStats{Files: covered.Len(), Segments: len(s.segs), Reopened: true}
	for _, p := range s.paths {
		if fi, err := os.Stat(p); err == nil {
			n.stats.DiskBytes += fi.Size()
		}
	}
}

// startCheck checks the saved index in use against the tree (list walks it), in the background. It is called once
// the watcher is running, so a change after a file's check is reported as any change is.
func (n *narrower) startCheck(list func(each func(listed)) []listed) {
	n.mu.Lock()
	ck := n.check
	closed := n.closed
	n.mu.Unlock()
	if ck != nil && !closed {
		go n.runCheck(ck, list)
	}
}

// runCheck checks every file of the tree against the manifest (see the invariant above), telling searches of what
// it finds as it goes; at the end the index is in use as after a build (and its segments merged, if several).
func (n *narrower) runCheck(ck *checkState, list func(each func(listed)) []listed) {
	n.mu.Lock()
	covered, binary, every, hook := n.covered, n.binary, max(n.checkEvery, 1), n.checked
	n.mu.Unlock()
	var changed []string
	var seen, seenBin []int
	done := 0
	tell := func() {
		n.mu.Lock()
		// Changed files first, in the same hold of the lock: a search never sees a file checked and not changed.
		for _, rel := range changed {
			n.dirty[rel] = true
		}
		for _, i := range seen {
			ck.seen[i>>6] |= 1 << (i & 63)
		}
		for _, i := range seenBin {
			ck.seenBin[i>>6] |= 1 << (i & 63)
		}
		n.mu.Unlock()
		changed, seen, seenBin = changed[:0], seen[:0], seenBin[:0]
		if hook != nil {
			hook(done)
		}
		// A search running now stats the files not checked yet itself: the check waits rather than take half
		// the machine from it for the same work.
		n.yield()
	}
	list(func(f listed) {
		if i, ok := covered.find(f.rel); ok {
			seen = append(seen, i)
			if f.id == unknownID || ck.ids[i] != f.id {
				changed = append(changed, f.rel)
			}
		}
		if i, ok := binary.find(f.rel); ok {
			seenBin = append(seenBin, i)
			if f.id == unknownID || ck.binIDs[i] != f.id {
				changed = append(changed, f.rel)
			}
		}
		if done++; done%every == 0 {
			tell()
		}
	})
	tell()
	n.mu.Lock()
	defer n.mu.Unlock()
	n.building = false
	if n.closed || n.check != ck {
		return // the segments are closed by close
	}
	n.check = nil
	if n.stale {
		// A rescan during the check: the segments describe a tree that changed in ways paths cannot say. The next
		// search builds anew.
		for _, s := range n.segs {
			s.Close()
		}
		n.segs, n.segPaths, n.covered, n.binary = nil, nil, nil, nil
		return
	}
	// The manifest's files the check did not meet are gone, or ignored now (a search that includes ignored files
	// reads them): not answered from the index again.
	for i := range covered.Len() {
		if !bit(ck.seen, i) {
			n.dirty[string(covered.bytes(i))] = true
		}
	}
	for i := range binary.Len() {
		if !bit(ck.seenBin, i) {
			n.dirty[string(binary.bytes(i))] = true
		}
	}
	n.coveredIDs, n.binaryIDs = nil, nil // on disk: the next save reads them (those changed are noted as dirty)
	n.stats.Ready = true
	if segs := n.segs; len(segs) > 1 && !n.noMerge {
		n.building = true
		go n.merge(n.gen, segs)
	}
}
