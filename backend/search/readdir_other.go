//go:build !linux

package search

import "os"

// readDir lists a directory with os.File.ReadDir.
func readDir(h *os.File, _ int) ([]dirEntry, error) {
	entries, err := h.ReadDir(-1)
	if err != nil {
		return nil, err
	}
	out := make([]dirEntry, len(entries))
	for i, e := range entries {
		out[i] = dirEntry{name: e.Name(), typ: e.Type()}
	}
	return out, nil
}
