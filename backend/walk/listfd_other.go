//go:build unix && !linux

package walk

import (
	"os"

	"golang.org/x/sys/unix"
)

// listFD lists a directory descriptor with os.File.ReadDir on a duplicate of it.
func listFD(fd int) ([]entry, error) {
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
	out := make([]entry, len(entries))
	for i, e := range entries {
		out[i] = entry{name: e.Name(), typ: e.Type()}
	}
	return out, nil
}
