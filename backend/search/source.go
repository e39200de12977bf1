package search

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/rooted-dev/rooted/backend/files"
)

// Source supplies the files of a search and their content. DiskSource reads the disk each time; a cached source
// can answer repeated searches from memory.
type Source interface {
	Walk(ctx context.Context, dir string, opt WalkOptions, emit func(file) bool) error
	// Content returns a file's bytes and a function to call when they are no longer used.
	Content(f file) ([]byte, func(), error)
}

// DiskSource walks and reads through root on every search.
type DiskSource struct{ Root *os.Root }

// Walk walks the tree.
func (d DiskSource) Walk(ctx context.Context, dir string, opt WalkOptions, emit func(file) bool) error {
	return walk(ctx, d.Root, dir, opt, emit)
}

// Content reads a file into a pooled buffer.
func (d DiskSource) Content(f file) ([]byte, func(), error) { return readPooled(f) }

// bufPool holds read buffers; most source files fit one, so a search allocates little however many it reads.
// bigPool holds buffers for the larger files, up to bigMax; beyond that a file gets a buffer of its own.
var (
	bufPool = sync.Pool{New: func() any { b := make([]byte, 128<<10); return &b }}
	bigPool sync.Pool
)

const bigMax = 16 << 20

// readPooled reads f from its directory.
func readPooled(f file) ([]byte, func(), error) {
	if f.link {
		lf, _, err := files.OpenRegular(f.dir.project, "search", filepath.FromSlash(f.rel))
		if err != nil {
			return nil, func() {}, err
		}
		defer lf.Close()
		return readAllPooled(osFile{lf})
	}
	rf, err := openName(f.dir.dirHandle, f.name)
	if err != nil {
		return nil, func() {}, err
	}
	defer rf.Close()
	return readAllPooled(rf)
}

// sizedReader is an open file that can tell its size.
type sizedReader interface {
	io.Reader
	size() (int64, error)
}

// readAllPooled reads h into a pooled buffer. For a regular file a short read means end of file, so a file
// smaller than the buffer takes one read and no stat.
func readAllPooled(h sizedReader) ([]byte, func(), error) {
	bp := bufPool.Get().(*[]byte)
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
	size, err := h.size()
	if err != nil {
		return nil, func() {}, err
	}
	if size > maxFileBytes {
		return nil, func() {}, errTooLarge
	}
	var big []byte
	done := func() {}
	if size < bigMax {
		bp, _ := bigPool.Get().(*[]byte)
		if bp == nil || cap(*bp) < int(size)+1 {
			b := make([]byte, 0, max(int(size)+1, 1<<20))
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

// errNotCached marks a file the index knows is not searchable (binary or too large).
var errNotCached = errors.New("not searchable")

// errBinary marks a file whose first bytes hold a NUL: a search skips it.
var errBinary = errors.New("binary")

func containsNUL(b []byte) bool { return bytes.IndexByte(b, 0) >= 0 }

var errTooLarge = errors.New("file too large to search")

// osFile adapts an *os.File to readPooled's reader.
type osFile struct{ *os.File }

func (f osFile) size() (int64, error) {
	fi, err := f.Stat()
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}
