package search

import (
	"context"
	"os"
)

// Source supplies the files of a search and their content. DiskSource reads the disk each time; a cached source
// can answer repeated searches from memory.
type Source interface {
	Files(ctx context.Context, dir string, opt WalkOptions) ([]file, func(), error)
	Content(f file) ([]byte, error)
}

// DiskSource walks and reads through root on every search.
type DiskSource struct{ Root *os.Root }

// Files walks the tree.
func (d DiskSource) Files(ctx context.Context, dir string, opt WalkOptions) ([]file, func(), error) {
	return walk(ctx, d.Root, dir, opt)
}

// Content reads a file.
func (d DiskSource) Content(f file) ([]byte, error) { return readAll(f) }
