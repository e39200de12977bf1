package search

import (
	"context"
	"os"
	"path/filepath"

	"github.com/rooted-dev/rooted/backend/files"
	"github.com/rooted-dev/rooted/backend/walk"
)

// Verdict is what an index knows of one file before a search reads it.
type Verdict uint8

const (
	MayMatch    Verdict = iota // read it
	CannotMatch                // it lacks a trigram the query needs: counted as searched, not read
	BinaryFile                 // skipped, as a search skips binary files, without reading it
)

// Narrower is a Source that can narrow a search to the files that may match (package index).
type Narrower interface {
	// Narrow returns each file's verdict for opt, or nil when it cannot narrow this search. It is asked of every
	// file a search walks (on a big project, tens of thousands a search), so it must cost next to nothing.
	Narrow(ctx context.Context, opt Options) func(f File) Verdict
}

// CandidateWalker is a Narrower that can yield the files that may match by themselves, without being asked of
// every file: on a big project a search then costs what its candidates do, not what the project's size does (a
// walk of 460k files asking each its verdict took 75-121 ms for a literal in no file).
type CandidateWalker interface {
	// WalkCandidates yields, in walk order, the files under dir that may match opt, each with how many files the
	// index ruled out just before it (counted as searched, as Narrow's CannotMatch); rest is how many it ruled
	// out after the last. ok false: it cannot answer this search this way (nothing yielded), and the caller walks
	// and narrows as usual.
	WalkCandidates(ctx context.Context, dir string, opt Options, emit func(f File, ruledOut int) bool) (rest int, ok bool, err error)
}

// IsBinary reports whether data, a file's first bytes at least, show a binary file, as git decides.
func IsBinary(data []byte) bool { return containsNUL(data[:min(len(data), sniffLen)]) }

// ReadPath reads a file named by its slash path from the root, through the root, as a search reads it: into a
// pooled buffer (good until release), a large binary file not past its first bytes (ErrBinary).
func ReadPath(root *os.Root, rel string) (data []byte, release func(), err error) {
	fh, _, err := files.OpenRegular(root, "search", filepath.FromSlash(rel))
	if err != nil {
		return nil, func() {}, err
	}
	defer fh.Close()
	return readAllPooled(osFile{fh})
}

// ReadIn reads the file name of the open directory d, not following a link, as a search reads it.
func ReadIn(d *walk.Dir, name string) (data []byte, release func(), err error) {
	f, err := d.Open(name)
	if err != nil {
		return nil, func() {}, err
	}
	defer f.Close()
	return readAllPooled(f)
}
