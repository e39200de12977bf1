//go:build !unix

package walk

import (
	"errors"
	"io"
	"os"
	"path/filepath"

	"github.com/rooted-dev/rooted/backend/smallfile"
)

// handle is a directory opened as an os.Root (on systems without openat).
type handle struct{ r *os.Root }

// ErrNotDir is the error of a walk started at something that is not a directory.
var ErrNotDir = errors.New("not a directory")

func openTop(root *os.Root, rel string) (handle, error) {
	r, err := root.OpenRoot(filepath.FromSlash(rel))
	return handle{r}, err
}

func (h handle) openSub(name string) (handle, error) {
	r, err := h.r.OpenRoot(name)
	return handle{r}, err
}

func (h handle) close() { h.r.Close() }

func (h handle) list() ([]entry, error) {
	f, err := h.r.Open(".")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	entries, err := f.ReadDir(-1)
	if err != nil {
		return nil, err
	}
	out := make([]entry, len(entries))
	for i, e := range entries {
		out[i] = entry{name: e.Name(), typ: e.Type()}
	}
	return out, nil
}

func (h handle) readFile(name string) ([]byte, error) { return smallfile.ReadIn(h.r, name) }

func (h handle) open(name string) (File, error) {
	f, err := h.r.Open(name)
	return File{f}, err
}

func (h handle) lstat(name string) (int64, error) {
	fi, err := h.r.Lstat(name)
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}

func (h handle) identity(name string) (Identity, error) {
	fi, err := h.r.Lstat(name)
	if err != nil {
		return Identity{}, err
	}
	return Identity{Size: fi.Size(), Mtime: fi.ModTime().UnixNano()}, nil
}

// File is a file opened from a walked directory by its name.
type File struct{ *os.File }

var _ io.Reader = File{}

// Size is the file's size now.
func (f File) Size() (int64, error) {
	fi, err := f.Stat()
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}
