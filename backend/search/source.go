package search

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"io"
	"math/bits"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/rooted-dev/rooted/backend/files"
)

// Source supplies the files of a search and their content. DiskSource reads the disk each time; a cached source
// can answer repeated searches from memory.
type Source interface {
	Walk(ctx context.Context, dir string, opt WalkOptions, emit func(File) bool) error
	// Content returns a file's bytes and a function to call when they are no longer used.
	Content(f File) ([]byte, func(), error)
}

// DiskSource walks and reads through root on every search.
type DiskSource struct{ Root *os.Root }

// Walk walks the tree.
func (d DiskSource) Walk(ctx context.Context, dir string, opt WalkOptions, emit func(File) bool) error {
	return walkFiles(ctx, d.Root, dir, opt, emit)
}

// Content reads a file into a pooled buffer, or maps a large one: only Search's workers may call it (see
// readPooled).
func (d DiskSource) Content(f File) ([]byte, func(), error) { return readPooled(f) }

// bufPool holds read buffers; most source files fit one, so a search allocates little however many it reads.
// bigPool holds buffers for the larger files, up to bigMax (beyond that a file gets a buffer of its own): one a
// search worker, at most bigKept bytes in all, so a many-core machine searching a tree of huge files keeps a bounded
// amount (the rest are allocated per file, as the largest files always are).
//
// They are free lists, not sync.Pools: a sync.Pool is emptied by every garbage collection, and a cold search
// collects several times, so it kept allocating fresh buffers whose pages the kernel then had to fault in on the
// first read into them (half of a CLI search's page faults, and on a virtual machine each fault is dear). A free
// list keeps what it holds; it holds at most a few buffers per CPU.
var (
	bufPool = freeList{New: func() *[]byte { b := make([]byte, 128<<10); return &b }}
	bigPool = freeList{New: func() *[]byte { return nil }, max: runtime.GOMAXPROCS(0), maxBytes: bigKept}
)

const bigKept = 32 << 20

// freeList is a bounded stack of buffers that garbage collection leaves alone.
type freeList struct {
	New      func() *[]byte
	max      int // buffers kept; 0 means four per CPU
	maxBytes int // their capacities in all; 0: no bound

	mu    sync.Mutex
	free  []*[]byte
	bytes int
}

// Get returns a kept buffer, or New's.
func (l *freeList) Get() *[]byte {
	l.mu.Lock()
	if n := len(l.free); n > 0 {
		b := l.free[n-1]
		l.free = l.free[:n-1]
		l.bytes -= cap(*b)
		l.mu.Unlock()
		return b
	}
	l.mu.Unlock()
	return l.New()
}

// Put keeps b for a later Get, unless the list is full.
func (l *freeList) Put(b *[]byte) {
	l.mu.Lock()
	if len(l.free) < cmp.Or(l.max, 4*runtime.GOMAXPROCS(0)) && (l.maxBytes == 0 || l.bytes+cap(*b) <= l.maxBytes) {
		l.free = append(l.free, b)
		l.bytes += cap(*b)
	}
	l.mu.Unlock()
}

const bigMax = 16 << 20

// readPooled reads f from its directory into a pooled buffer. A file larger than one is read into one of a few
// larger buffers kept for them (bigPool), not mapped: once a buffer's pages are in, a read is a copy into memory
// the CPU's caches then hold for the search (BenchmarkLargeFile: read into a kept buffer 0.16 ms for 3 MiB,
// mapped 0.33 ms), and unmapping a file costs a flush of every CPU's address translations, which on a virtual
// machine took 80 µs a file: a full count of a 92k-file tree with its 904 files over 128 KiB went from 1.05 s
// mapped to 0.84 s read. Only a process's first large files pay for fresh pages (the "fresh memory" case).
func readPooled(f File) ([]byte, func(), error) {
	if f.link() {
		lf, _, err := files.OpenRegular(f.Dir.Project(), "search", filepath.FromSlash(f.Rel))
		if err != nil {
			return nil, func() {}, err
		}
		defer lf.Close()
		return readAllPooled(osFile{lf})
	}
	rf, err := f.Dir.Open(f.Name)
	if err != nil {
		return nil, func() {}, err
	}
	defer rf.Close()
	return readAllPooled(rf)
}

// sizedReader is an open file that can tell its size.
type sizedReader interface {
	io.Reader
	Size() (int64, error)
}

// readAllPooled reads h into a pooled buffer. For a regular file a short read means end of file, so a file
// smaller than the buffer takes one read and no stat. A larger file whose first bytes show it is binary is not
// read further (ErrBinary): a search skips it anyway, and in the Go tree such files are a seventh of the bytes.
func readAllPooled(h sizedReader) ([]byte, func(), error) {
	bp := bufPool.Get()
	put := func() { bufPool.Put(bp) }
	buf := *bp
	n, err := io.ReadFull(h, buf)
	switch {
	case err == io.ErrUnexpectedEOF || err == io.EOF:
		return buf[:n], put, nil
	case err != nil:
		put()
		return nil, func() {}, err
	}
	defer put() // larger than the buffer: read the rest into a buffer of its own
	if containsNUL(buf[:sniffLen]) {
		return nil, func() {}, ErrBinary
	}
	size, err := h.Size()
	if err != nil {
		return nil, func() {}, err
	}
	if size > maxFileBytes {
		return nil, func() {}, errTooLarge
	}
	var big []byte
	done := func() {}
	if size < bigMax {
		bp := bigPool.Get()
		if bp == nil || cap(*bp) < int(size)+1 {
			// A power of two, so the few sizes of a tree's larger files share buffers rather than each growing one.
			b := make([]byte, 0, 1<<bits.Len(uint(max(int(size), 1<<20-1))))
			bp = &b
		}
		big = (*bp)[:n]
		done = func() { *bp = big[:0]; bigPool.Put(bp) }
	} else {
		big = make([]byte, n, size+1)
	}
	copy(big, buf[:n])
	for {
		m, err := h.Read(big[len(big):cap(big)])
		big = big[:len(big)+m]
		if err == io.EOF {
			return big, done, nil
		}
		if err != nil {
			done()
			return nil, func() {}, err
		}
		if len(big) == cap(big) {
			big = append(big, 0)[:len(big)] // grew since the stat
		}
	}
}

// ErrNotSearchable is a Source's answer for a file it knows is not searchable (binary or too large).
var ErrNotSearchable = errors.New("not searchable")

// ErrBinary marks a file whose first bytes hold a NUL: a search skips it.
var ErrBinary = errors.New("binary")

func containsNUL(b []byte) bool { return bytes.IndexByte(b, 0) >= 0 }

var errTooLarge = errors.New("file too large to search")

// osFile adapts an *os.File to readPooled's reader.
type osFile struct{ *os.File }

func (f osFile) Size() (int64, error) {
	fi, err := f.Stat()
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}
