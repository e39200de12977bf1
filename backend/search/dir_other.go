//go:build !unix

package search

import (
	"errors"
	"io"
	"os"
	"path/filepath"
)

// dirHandle is a directory opened as an os.Root (on systems without openat).
type dirHandle struct{ r *os.Root }

var errNotDir = errors.New("not a directory")

func openTop(root *os.Root, rel string) (dirHandle, error) {
	r, err := root.OpenRoot(filepath.FromSlash(rel))
	return dirHandle{r}, err
}

func (h dirHandle) openSub(name string) (dirHandle, error) {
	r, err := h.r.OpenRoot(name)
	return dirHandle{r}, err
}

func (h dirHandle) close() { h.r.Close() }

func (h dirHandle) list() ([]dirEntry, error) {
	f, err := h.r.Open(".")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	entries, err := f.ReadDir(-1)
	if err != nil {
		return nil, err
	}
	out := make([]dirEntry, len(entries))
	for i, e := range entries {
		out[i] = dirEntry{name: e.Name(), typ: e.Type()}
	}
	return out, nil
}

func (h dirHandle) readFile(name string) ([]byte, error) { return h.r.ReadFile(name) }

func openName(h dirHandle, name string) (rawFile, error) {
	f, err := h.r.Open(name)
	return rawFile{f}, err
}

type rawFile struct{ *os.File }

// mapAll does not map here: the file is read.
func (rawFile) mapAll(int64) ([]byte, func(), error) { return nil, nil, errNotMapped }

var _ io.Reader = rawFile{}

func (f rawFile) size() (int64, error) {
	fi, err := f.Stat()
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}
