package index

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"

	"github.com/rooted-dev/rooted/backend/search"
	"github.com/rooted-dev/rooted/backend/trigram"
)

// written is what a build wrote: its segments, the names of the files they cover and of the binary ones, with
// their identities when listed.
type written struct {
	segs                  []*trigram.Segment
	paths                 []string
	covered, binary       *nameTable
	coveredIDs, binaryIDs []fileID
	stats                 NarrowStats
}

// chunk is one piece of a build's list, read and indexed by one worker: its segments (more than one when its
// pairs pass the bound) and what it found of its files.
type chunk struct {
	segs            []*trigram.Segment
	paths           []string
	covered, binary []int32 // places in the chunk's files
	text, bytes     int64
	err             error
	done            bool
}

// write builds the segments of generation gen, on a worker a core, from consecutive chunks of the list; as the
// chunks land, in order, publish is given what is written so far, so a first build is usable piece by piece (a
// search narrows with what is in and reads the rest). Each worker yields to searches between files; a first build
// (publish not nil) runs at niceFirst, a rebuild at niceBackground.
//
// Files are numbered in path order (the list is sorted so, as a sorted walk yields it already), so the names of the
// files covered, in the order of their numbers, are a nameTable: a file's number is its place in it.
func (n *narrower) write(gen int, list []listed, read func(rel string) ([]byte, func(), error), publish func(written)) (w written, err error) {
	w.covered, w.binary = &nameTable{}, &nameTable{}
	slices.SortFunc(list, func(a, b listed) int { return comparePaths(a.rel, b.rel) })
	list = slices.CompactFunc(list, func(a, b listed) bool { return a.rel == b.rel })
	if err := os.MkdirAll(n.dir, 0o700); err != nil {
		return written{}, err
	}
	prune(n.dir)
	workers := max(1, min(runtime.GOMAXPROCS(0), 4))
	size := min(max(len(list)/(8*workers), 16), 2048)
	chunks := make([]chunk, (len(list)+size-1)/size)
	var mu sync.Mutex
	cond := sync.NewCond(&mu)
	next, landed := 0, 0 // the next chunk to take; the chunks landed in order
	failed := false
	var wg sync.WaitGroup
	first := publish != nil
	for range workers {
		wg.Go(func() {
			if first {
				background(niceFirst)
			} else {
				background(niceBackground)
			}
			var b trigram.Builder
			for {
				mu.Lock()
				k := next
				next++
				stop := failed
				mu.Unlock()
				if k >= len(chunks) || stop {
					return
				}
				c := n.writeChunk(gen, k, list[k*size:min((k+1)*size, len(list))], read, &b)
				mu.Lock()
				chunks[k] = c
				chunks[k].done = true
				failed = failed || c.err != nil
				cond.Broadcast()
				mu.Unlock()
			}
		})
	}
	// Chunks are taken in order, so waiting for the next in order to land waits for at most a chunk a worker.
	published := 0
	var text int64
	for landed < len(chunks) {
		mu.Lock()
		for !chunks[landed].done {
			cond.Wait()
		}
		c := chunks[landed]
		mu.Unlock()
		if c.err != nil {
			break
		}
		w.segs, w.paths = append(w.segs, c.segs...), append(w.paths, c.paths...)
		files := list[landed*size:]
		for _, i := range c.covered {
			w.covered.add(files[i].rel)
			w.coveredIDs = append(w.coveredIDs, files[i].id)
		}
		for _, i := range c.binary {
			w.binary.add(files[i].rel)
			w.binaryIDs = append(w.binaryIDs, files[i].id)
		}
		text += c.text
		w.stats.DiskBytes += c.bytes
		landed++
		// Publish every eighth of the list from half of it on: each publication costs a pass over the lists in
		// memory, and a search reads the files not covered yet from the list, about 1.5 times the cost of a walk
		// of the disk a file (which a search the index cannot narrow makes): below half covered, that is no gain.
		if publish != nil && landed < len(chunks) && 2*landed >= len(chunks) && (landed-published)*8 >= len(chunks) {
			published = landed
			publish(w.snapshot())
		}
	}
	wg.Wait()
	for _, c := range chunks {
		if c.err != nil {
			err = errors.Join(err, c.err)
		}
	}
	if err != nil {
		for _, c := range chunks {
			for _, s := range c.segs {
				s.Close()
			}
		}
		return written{}, err
	}
	w.covered.compact()
	w.binary.compact()
	w.coveredIDs, w.binaryIDs = slices.Clip(w.coveredIDs), slices.Clip(w.binaryIDs)
	w.stats.Files, w.stats.Segments, w.stats.TextMiB = w.covered.Len(), len(w.segs), float64(text)/(1<<20)
	return w, nil
}

// snapshot is what w holds now, not changed by what is added to w later (the tables' slices are only appended to,
// past the lengths a snapshot has).
func (w written) snapshot() written {
	s := w
	s.segs, s.paths = slices.Clip(w.segs), slices.Clip(w.paths)
	s.covered = &nameTable{data: slices.Clip(w.covered.data), off: slices.Clip(w.covered.off)}
	s.binary = &nameTable{data: slices.Clip(w.binary.data), off: slices.Clip(w.binary.off)}
	s.coveredIDs, s.binaryIDs = slices.Clip(w.coveredIDs), slices.Clip(w.binaryIDs)
	s.stats.Files, s.stats.Segments = s.covered.Len(), len(s.segs)
	return s
}

// writeChunk reads and indexes the files of chunk k into segments of their own, with the worker's builder b.
func (n *narrower) writeChunk(gen, k int, files []listed, read func(rel string) ([]byte, func(), error), b *trigram.Builder) (c chunk) {
	flush := func() error {
		if b.Files() == 0 {
			return nil
		}
		path := filepath.Join(n.dir, fmt.Sprintf("g%d-%s-c%d-s%d.tri", gen, n.tag, k, len(c.segs)))
		if err := b.Write(path); err != nil {
			return err
		}
		s, err := trigram.Open(path)
		if err != nil {
			return err
		}
		if fi, err := os.Stat(path); err == nil {
			c.bytes += fi.Size()
		}
		c.segs, c.paths = append(c.segs, s), append(c.paths, path)
		b.Reset() // its arrays are reused: growing them anew for each segment faulted in fresh memory each time
		return nil
	}
	for i, f := range files {
		n.yield()
		n.read.Add(1)
		data, release, err := read(f.rel)
		if errors.Is(err, search.ErrBinary) {
			c.binary = append(c.binary, int32(i))
			continue
		}
		if err != nil {
			continue // unreadable or too large: searched directly (not covered)
		}
		b.Add(f.rel, data)
		c.covered = append(c.covered, int32(i))
		release()
		c.text += int64(len(data))
		if b.Pairs() >= max(n.pairs/runtime.GOMAXPROCS(0), 1) { // a builder a worker: together the bound of one
			if c.err = flush(); c.err != nil {
				return c
			}
		}
	}
	c.err = flush()
	return c
}
