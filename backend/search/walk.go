// Package search finds files and text in a project the way a developer expects: it sees exactly the files git
// would track (.gitignore at every level, .git/info/exclude, never .git), hidden and ignored files only on
// request, binary files skipped, and every result capped with Limit and Truncated.
//
// The files come from package walk (every access through the project's *os.Root, each file opened by one name
// from its folder's descriptor) or from a Source that keeps lists in memory. Not guaranteed: a file changing
// during a search may be seen in either state; symlinked directories are not descended into (as git and ripgrep
// do), symlinked files are searched when they stay inside the root.
package search

import (
	"context"
	"io/fs"
	"os"

	"github.com/rooted-dev/rooted/backend/walk"
)

// WalkOptions choose which files a walk yields.
type WalkOptions struct {
	IncludeHidden  bool // names starting with "."
	IncludeIgnored bool // what .gitignore and friends exclude (.git itself never)
	// Match, when set, filters files by their slash path relative to the project root.
	Match func(rel string) bool
	// Stat asks for each file's FileInfo (size, mtime); searching does without it.
	Stat bool
	// Shallow lists only the files directly in the walked directory, none below it.
	Shallow bool
	// ReadAll says the caller reads every file it is given (a search nothing narrows): a Source that keeps lists
	// in memory walks the disk instead, which opens each folder from its parent as it goes, where reading the
	// files a list names opens their folders again by path.
	ReadAll bool
	// Pacer, when set, is asked before each folder the walk lists ahead of its visit (walk.Options.Pacer).
	Pacer walk.Pacer
}

// File is one file a Source yields: where it is (a walk.Entry, with its open directory when it comes from the
// disk), and what a search knows of it before reading it. Release must be called once the file is done with.
type File struct {
	walk.Entry
	Info fs.FileInfo // only with WalkOptions.Stat
	// Ordinal is one more than the file's place in a list its Source holds in memory (0: walked from the disk): a
	// Narrower looks a file up by it, in an array, instead of by its name in a map.
	Ordinal int

	verdict        Verdict // what the trigram index knows of it before it is read
	ruledOutBefore int     // files ruled out by the index just before this one in the walk, counted as searched
}

// link reports a symlink to a file inside the root: opened through the root, which follows it safely.
func (f File) link() bool { return f.Type&fs.ModeSymlink != 0 }

// maxAhead bounds the directories listed but not yet visited, and so the descriptors a walk holds.
const maxAhead = 64

// walkFiles yields the regular files (and links to files inside the root) under the root-relative slash
// directory start in path order, until emit returns false or ctx ends.
func walkFiles(ctx context.Context, root *os.Root, start string, opt WalkOptions, emit func(File) bool) error {
	wo := walk.Options{IncludeHidden: opt.IncludeHidden, IncludeIgnored: opt.IncludeIgnored, Sorted: true, Ahead: maxAhead, Pacer: opt.Pacer}
	if opt.Shallow {
		wo.MaxDepth = 1
	}
	return walk.Walk(ctx, root, start, wo, func(e walk.Entry) error {
		if !e.Type.IsRegular() && e.Type&fs.ModeSymlink == 0 {
			return nil
		}
		if opt.Match != nil && !opt.Match(e.Rel) {
			return nil
		}
		f := File{Entry: e}
		if opt.Stat || f.link() {
			info, err := e.Dir.StatFollow(e.Name)
			if err != nil || !info.Mode().IsRegular() {
				return nil
			}
			f.Info = info
		}
		f.Entry = e.Keep()
		if !emit(f) {
			f.Release()
			return fs.SkipAll
		}
		return nil
	})
}
