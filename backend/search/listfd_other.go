//go:build unix && !linux

package search

import (
	"os"

	"golang.org/x/sys/unix"
)

// listFD lists a directory descriptor with os.File.ReadDir on a duplicate of it.
func listFD(fd int) ([]dirEntry, error) {
	dup, err := unix.Dup(fd)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(dup), ".")
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
