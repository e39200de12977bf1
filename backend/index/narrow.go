package index

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"regexp/syntax"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/codesearch/index"

	"github.com/rooted-dev/rooted/backend/search"
	"github.com/rooted-dev/rooted/backend/trigram"
)

// narrower keeps an on-disk trigram index of a project (package trigram) beside the Index, so a repeated search
// reads only the files that can match instead of holding every file's text in memory. It is built in the
// background after the first full listing, from the files as they are then; a file reported changed since (by the
// watcher, or by Rooted's own writes) is always searched directly, as is a file the index does not cover, so
// results are exactly a full scan's. When too much has changed it is rebuilt.
type narrower struct {
	root *os.Root
	dir  string // where its segments live; "" when there is no cache directory

	mu       sync.Mutex
	saveMu   sync.Mutex // held by a save of the manifest for its whole run (save)
	segs     []*trigram.Segment
	segPaths []string // their files
	tag      string   // in this process's segment names: another process with the project open writes its own
	closed   bool
	covered  *nameTable // files the segments hold, by number: segment k's file i is the earlier segments' files plus i
	binary   *nameTable // files found binary at the build, which no search reads
	// coveredIDs and binaryIDs are the identities of covered's and binary's files when the build listed them: what
	// is saved for the next opening (saved.go).
	coveredIDs, binaryIDs []fileID
	check                 *checkState     // the saved index in use is being checked against the tree (check.go)
	checkEvery            int             // files the check tells searches of at a time (tests make it small)
	checked               func(int)       // told of the files checked so far after each such step, n.mu not held (tests)
	dirty                 map[string]bool // changed since the segments were built
	during                map[string]bool // changed while a build runs (it may have read them before)
	stale                 bool            // something changed that paths cannot describe (a rescan): do not narrow
	rescans               int             // rescans reported: a build that began before one is not used
	building              bool
	partial               bool   // segs are a first build's, in use while it goes on (publish)
	published             func() // told of each publication, once n.mu is released (tests)
	gen                   int
	built                 int // builds swapped in: what the numbers a list keeps of its files are of (fileList)
	stats                 NarrowStats
	paused                time.Time // not used before this (see Index.CommandRan)
	pairs                 int       // a segment's pairs while building (segmentPairs; tests make it small)
	noMerge               bool      // keep the build's segments as written (a benchmark's "before")

	yielder search.Yielder // the build, the merge and the watcher's first walk wait for searches (see yield)
	read    atomic.Int64   // files read by builds, for tests
}

// yield waits while a search of the process runs (of the index, or of the disk before the index has started), up
// to search.DefaultMaxWait: a build is background work, and the agent waits for its searches, which read the same
// files. A build yields before it starts and between files, so a search never shares the machine with it for long;
// a search running longer lets it go on anyway, so a stuck search cannot keep the index from ever being built.
func (n *narrower) yield() { n.yielder.Wait(context.Background(), nil) }

// Thread priorities of the index's background work. A rebuild or a merge runs at niceBackground: about a tenth of a
// busy core's time against a process at the default priority (nice 19 left it a sixtieth on a machine busy with
// other work, so it took minutes).
//
// A first build runs at niceFirst, the default priority: until it lands every search reads every file (at 460k
// files about 9 s of CPU each, against some 40 s for the whole build), so a build given less of a machine busy with
// other work saves that work nothing. In the 460k-file bench (a fresh CLI and rg searching one after another beside
// it) the build was whole 103 s after opening at nice 5 (a quarter of a core other work wants) and 71-85 s at nice
// 0; rg's counts during the build took 10.4-10.7 s at nice 5 and 10.7-15.9 s at nice 0. It still waits for the process's own searches: one that
// did not (tried) made a search during the build up to 2.7 times rg at 92k files.
const (
	niceBackground = 10
	niceFirst      = 0
)

// pauseAfterCommand is how long the index is not used after a command: the kernel has queued the reports of the
// command's writes when it exits; the watcher turns them into changed paths within milliseconds.
const pauseAfterCommand = 500 * time.Millisecond

func (n *narrower) pause(d time.Duration) {
	n.mu.Lock()
	n.paused = time.Now().Add(d)
	n.mu.Unlock()
}

// NarrowStats describe the trigram index, for the settings screen and benchmarks.
type NarrowStats struct {
	Files     int     `json:"files"`
	DiskBytes int64   `json:"disk_bytes"`
	BuildMS   int64   `json:"build_ms"`
	Ready     bool    `json:"ready"`
	Changed   int     `json:"changed"` // files searched directly until the next rebuild
	Segments  int     `json:"segments"`
	MergeMS   int64   `json:"merge_ms"` // how long merging the build's segments into one took (0: one was written)
	TextMiB   float64 `json:"text_mib"`
	Reopened  bool    `json:"reopened"` // kept from an earlier opening, checked against the tree (saved.go)
}

// buildDelay is how long after the search that asks for it a build starts (tests set it to 0).
var buildDelay = 2 * time.Second

// rebuildAfter is how many changed files make a rebuild worth it.
const rebuildAfter = 2000

// segmentPairs bounds a segment's (trigram, file) pairs while it is built: 2M pairs are 16 MiB, and a little more
// as they grow and are sorted (trigram.Builder). (8M pairs, grown by copying, held 88 MiB on top of
// the text cache at the peak of a build, which put a 92k-file project's resident memory past 300 MiB; 4M pairs
// left too little room under the soft memory limit, and the collector ran a thousand times in one build.)
const segmentPairs = 2 << 20

func newNarrower(root *os.Root, abs, cache string) *narrower {
	var tag [4]byte
	rand.Read(tag[:])
	n := &narrower{root: root, dirty: map[string]bool{}, pairs: segmentPairs, tag: hex.EncodeToString(tag[:]), checkEvery: checkEvery}
	if n.dir = indexDir(abs, cache); n.dir != "" {
		// An index kept from an earlier opening is in use at once, and checked against the tree once the watcher
		// is up (check.go).
		if s := n.load(); s != nil {
			prune(n.dir)
			n.useSaved(s)
		}
	}
	return n
}

// indexDir is where the trigram index of the project at abs lives under cache (default: the user's cache
// directory); "" when there is none.
func indexDir(abs, cache string) string {
	if cache == "" {
		var err error
		if cache, err = os.UserCacheDir(); err != nil {
			return ""
		}
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(cache, "rooted", "search", filepath.Base(abs)+"-"+hex.EncodeToString(sum[:8]))
}

// changed notes a change reported for rel ("" or a rescan: anything).
func (n *narrower) changed(rel string, rescan bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if rescan || rel == "" {
		n.stale = true
		n.rescans++
		return
	}
	n.dirty[rel] = true
	if n.during != nil {
		n.during[rel] = true
	}
}

// build indexes the files list returns (read through read) in the background, unless a build runs or is not needed.
func (n *narrower) build(list func() []listed, read func(rel string) ([]byte, func(), error)) {
	n.mu.Lock()
	needed := n.segs == nil || n.stale || len(n.dirty) > rebuildAfter
	if n.building || !needed || n.dir == "" {
		n.mu.Unlock()
		return
	}
	// The index stays stale (not used) until the build is in: the segments in use do not describe what the rescan
	// changed. (Clearing it here narrowed the searches made during a rebuild with the segments it replaces.)
	n.building, n.during = true, map[string]bool{}
	rescans := n.rescans
	n.gen++
	gen := n.gen
	first := n.segs == nil // a first build is used piece by piece as it lands, and is urgent (niceFirst)
	n.mu.Unlock()
	go func() {
		// The search that asked runs first: on a big project the build and a search would share the machine's
		// cores and both take longer.
		if first {
			background(niceFirst)
		} else {
			background(niceBackground)
		}
		time.Sleep(buildDelay)
		n.yield()
		n.mu.Lock()
		closed := n.closed
		n.mu.Unlock()
		if closed {
			n.mu.Lock()
			n.building = false
			n.mu.Unlock()
			return
		}
		start := time.Now()
		var publish func(written)
		if first {
			publish = func(w written) { n.publish(gen, rescans, w) }
		}
		w, err := n.write(gen, list(), read, publish)
		// The build read every file once: give that garbage back to the system now rather than as the scavenger
		// gets to it, so a big project does not leave the process holding its size in freed heap.
		defer debug.FreeOSMemory()
		defer n.save() // after the lock below is released: kept for the next opening
		n.mu.Lock()
		defer n.mu.Unlock()
		n.building = false
		if n.partial {
			// What was published is w's first segments: closed below with w's if the build is not used.
			n.segs, n.segPaths, n.covered, n.binary, n.partial = nil, nil, nil, nil, false
		}
		if err != nil || n.rescans != rescans || n.closed {
			for _, s := range w.segs {
				s.Close()
			}
			n.removeGen(gen)
			n.during = nil
			return
		}
		old, stats, segs := n.segs, w.stats, w.segs
		n.stale = false
		n.segs, n.segPaths, n.covered, n.binary, n.dirty, n.during = w.segs, w.paths, w.covered, w.binary, n.during, nil
		n.coveredIDs, n.binaryIDs = w.coveredIDs, w.binaryIDs
		n.built++
		stats.BuildMS, stats.Ready = time.Since(start).Milliseconds(), true
		n.stats = stats
		for _, s := range old {
			s.Close()
		}
		n.removeOld(gen)
		if len(segs) > 1 && !n.noMerge {
			n.building = true // until the merge is in: no other build starts meanwhile
			go n.merge(gen, segs)
		}
	}()
}

// publish puts in use what a first build has written so far: a search narrows with it and reads the files it does
// not cover yet (they are numbered notCovered). n.mu is not held.
func (n *narrower) publish(gen, rescans int, w written) {
	n.mu.Lock()
	if n.closed || n.rescans != rescans || n.gen != gen || (n.segs != nil && !n.partial) {
		n.mu.Unlock()
		return
	}
	n.segs, n.segPaths, n.covered, n.binary, n.partial = w.segs, w.paths, w.covered, w.binary, true
	// The build began after the last rescan: what it wrote is of the files as they are since.
	n.stale = false
	n.dirty = maps.Clone(n.during) // what changed before the build is read by it, or searched as not covered
	n.built++
	n.stats = w.stats
	hook := n.published
	n.mu.Unlock()
	if hook != nil {
		hook()
	}
}

// merge replaces the segments of generation gen, in use since the build, by one: a lookup consults every segment
// for every trigram of a query (on a 92k-file project a build writes about 50), and one segment answers in one
// table block and one posting list. It runs on a background thread of its own and yields to searches, as the build
// does, and reads the segments front to back (trigram.Merge streams). The segments stay in use until the merged
// one replaces them, under n.mu, which every lookup holds: once it is swapped in no lookup reads them, so they are
// closed and removed. A merge that fails or is cut short leaves the segments as they were.
func (n *narrower) merge(gen int, segs []*trigram.Segment) {
	background(niceBackground)
	defer debug.FreeOSMemory() // as the build does: what the merge and the build's last moments freed goes back now
	start := time.Now()
	path := filepath.Join(n.dir, fmt.Sprintf("g%d-%s-merged.tri", gen, n.tag))
	err := trigram.Merge(path, segs, n.yield)
	var m *trigram.Segment
	if err == nil {
		m, err = trigram.Open(path)
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	n.building = false
	if err != nil || n.closed || n.gen != gen || !slices.Equal(n.segs, segs) {
		if m != nil {
			m.Close()
		}
		os.Remove(path)
		return
	}
	defer func() { go n.save() }() // names the merged segment, once the lock is released
	n.segs, n.segPaths = []*trigram.Segment{m}, []string{path}
	for _, s := range segs {
		s.Close()
	}
	n.stats.Segments, n.stats.MergeMS = 1, time.Since(start).Milliseconds()
	if fi, err := os.Stat(path); err == nil {
		n.stats.DiskBytes = fi.Size()
	}
	entries, _ := os.ReadDir(n.dir)
	for _, e := range entries {
		if e.Name() != filepath.Base(path) && e.Name() != manifestName {
			os.Remove(filepath.Join(n.dir, e.Name()))
		}
	}
}

// removeGen deletes the segment files of generation gen (a build that is not used).
func (n *narrower) removeGen(gen int) {
	entries, _ := os.ReadDir(n.dir)
	prefix := fmt.Sprintf("g%d-%s-", gen, n.tag)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), prefix) {
			os.Remove(filepath.Join(n.dir, e.Name()))
		}
	}
}

// removeOld deletes the segment files of earlier generations. n.mu is held.
func (n *narrower) removeOld(gen int) {
	entries, _ := os.ReadDir(n.dir)
	keep := fmt.Sprintf("g%d-%s-", gen, n.tag)
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), keep) && e.Name() != manifestName {
			os.Remove(filepath.Join(n.dir, e.Name()))
		}
	}
}

// candidates are what the trigram index says of one search: the numbers of the files that may match, and what
// it knows of every file by name.
type candidates struct {
	bits    []uint64 // by file number: may match, or changed since the build (the watcher's reports)
	files   int      // files the segments hold
	covered *nameTable
	binary  *nameTable
	dirty   map[string]bool // changed since the build, copied: the watcher adds to them while the search runs
	built   int             // which build the numbers are of (narrower.built)
	check   *checkView      // the saved index's check at the search's start; nil once it has ended (check.go)
	// settled: no build or merge runs, and the index covers the tree. Only then do searches' reads count toward
	// the text cache (countReads): a build's peak and a full cache together passed 300 MiB at 460k files.
	settled bool
}

// Numbers a list of files maps each of its names to (fileList.numbers): a file's number in the segments, or one
// of these.
const (
	notCovered int32 = -1 // created since the build, or not readable then: searched directly
	binaryFile int32 = -2 // binary at the build: skipped unless it changed since
)

// number is what the index holds of rel: its number, notCovered or binaryFile.
func (c *candidates) number(rel string) int32 {
	if _, ok := c.binary.find(rel); ok {
		return binaryFile
	}
	if id, ok := c.covered.find(rel); ok && id < c.files {
		return int32(id)
	}
	return notCovered
}

// verdict is the file's verdict from its number (see number); rel is only read for a file binary at the build.
func (c *candidates) verdict(id int32, rel string) search.Verdict {
	switch {
	case id == notCovered:
		return search.MayMatch
	case id == binaryFile:
		if c.dirty[rel] {
			return search.MayMatch
		}
		return search.BinaryFile
	case c.bits[id>>6]&(1<<(id&63)) != 0:
		return search.MayMatch
	}
	return search.CannotMatch
}

// byName is the file's verdict looked up by its name: for a file no list in memory numbers.
func (c *candidates) byName(rel string) search.Verdict {
	if c.dirty[rel] {
		return search.MayMatch
	}
	return c.verdict(c.number(rel), rel)
}

// keep returns what the index says of the files for opt, or nil when it cannot narrow the search (not built yet,
// stale, or a query every file may match).
func (n *narrower) keep(opt search.Options) *candidates {
	expr := opt.Query
	if !opt.Regex {
		expr = regexp.QuoteMeta(expr)
	}
	if opt.CaseInsensitive {
		expr = "(?i)" + expr
	}
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil
	}
	q := index.RegexpQuery(re.Simplify())
	if q.Op == index.QAll {
		return nil
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.segs == nil || n.stale || time.Now().Before(n.paused) || len(n.dirty) > rebuildAfter {
		return nil
	}
	// The candidates are a bit per file number, so a query that many files may match costs a bit each, not a
	// name and a map entry (on a 92k-file project, most of a common literal's narrowed search).
	c := &candidates{covered: n.covered, binary: n.binary, built: n.built, settled: !n.building && !n.partial} // replaced, never changed, by a build
	for _, s := range n.segs {
		c.files += s.Files()
	}
	c.bits = make([]uint64, (c.files+63)/64)
	base := uint32(0)
	for _, s := range n.segs {
		ids, all := s.Match(q)
		if all {
			return nil
		}
		for _, id := range ids {
			g := base + id
			c.bits[g>>6] |= 1 << (g & 63)
		}
		base += uint32(s.Files())
	}
	if n.check != nil {
		c.check = n.check.view()
	}
	// A file changed since the build may match whatever the segments say: its bit is set, so a search that looks
	// files up by number never asks for their names.
	if len(n.dirty) > 0 {
		c.dirty = maps.Clone(n.dirty)
		for rel := range c.dirty {
			if id, ok := c.covered.find(rel); ok && id < c.files {
				c.bits[id>>6] |= 1 << (id & 63)
			}
		}
	}
	return c
}

// busy reports whether a build or merge runs: the text cache is not filled by searches meanwhile.
func (n *narrower) busy() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.building
}

// Stats reports the trigram index's state.
func (n *narrower) Stats() NarrowStats {
	n.mu.Lock()
	defer n.mu.Unlock()
	st := n.stats
	st.Changed = len(n.dirty)
	st.Ready = n.segs != nil && !n.stale && !n.partial && n.check == nil
	return st
}

// close keeps the index on disk for the next opening of the project (its manifest saved with what changed since
// the build), or removes it when there is none to keep.
func (n *narrower) close() {
	n.saveMu.Lock() // after a save under way, and before any that would come later (save)
	defer n.saveMu.Unlock()
	n.saveLocked()
	n.mu.Lock()
	defer n.mu.Unlock()
	n.closed = true
	for _, s := range n.segs {
		s.Close()
	}
	n.segs = nil
	n.stale = true
	if _, err := os.Stat(filepath.Join(n.dir, manifestName)); err != nil && n.dir != "" && !n.building {
		os.RemoveAll(n.dir)
	}
}
