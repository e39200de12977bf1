// Package search finds files and text in a project the way a developer expects: it sees exactly the files git
// would track (.gitignore at every level, .git/info/exclude, never .git), hidden and ignored files only on
// request, binary files skipped, and every result capped with Limit and Truncated.
//
// All access is through the project's *os.Root: each directory is opened once as a sub-root and its files are
// opened relative to it, which is both the containment boundary and one openat per file. Not guaranteed: a file
// changing during a search may be seen in either state; symlinked directories are not descended into (as git and
// ripgrep do), symlinked files are searched when they stay inside the root.
package search

import (
	"cmp"
	"context"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/rooted-dev/rooted/backend/ignore"
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
}

// file is one file yielded by a walk: its directory's root and its name there, and its slash path from the
// project root. Release must be called once the file is done with; the directory's root closes after its last.
type file struct {
	dir  *dirRef
	name string
	rel  string
	info fs.FileInfo // only with WalkOptions.Stat
	link bool        // a symlink to a file inside the root: opened through the root, which follows it safely

	verdict        verdict // what the trigram index knows of it before it is read
	ruledOutBefore int     // files ruled out by the index just before this one in the walk, counted as searched
}

func (f file) release() {
	if f.dir != nil {
		f.dir.release()
	}
}

// dirRef shares one open directory among the walker and the files in flight from it; the directory closes after
// the last release. Its platform half (dir_unix.go, dir_other.go) opens, lists and reads through it.
type dirRef struct {
	dirHandle
	project *os.Root // for what must follow symlinks: os.Root follows them only while they stay inside
	rel     string   // slash path from the project root
	refs    atomic.Int32
}

func newDirRef(h dirHandle, project *os.Root, rel string) *dirRef {
	d := &dirRef{dirHandle: h, project: project, rel: rel}
	d.refs.Store(1) // the walker's, while it lists the directory
	return d
}

func (d *dirRef) acquire() *dirRef { d.refs.Add(1); return d }

func (d *dirRef) release() {
	if d.refs.Add(-1) == 0 {
		d.close()
	}
}

// statFollow stats a file of the directory following symlinks, through the project root.
func (d *dirRef) statFollow(name string) (fs.FileInfo, error) {
	return d.project.Stat(filepath.FromSlash(path.Join(d.rel, name)))
}

// listing is a directory read ahead of the walk. A walk lists subdirectories in parallel while it is still busy
// with earlier ones (reading directories is a good part of a search's system calls), and visits them in order.
type listing struct {
	ready   chan struct{}
	d       *dirRef
	entries []dirEntry
	dm      *ignore.Dir
}

// dirEntry is a name and its type bits (0 for a regular file).
type dirEntry struct {
	name string
	typ  fs.FileMode
}

// maxAhead bounds the directories listed but not yet visited, and so the descriptors a walk holds.
const maxAhead = 64

// walk yields the files under the root-relative slash directory start in path order, depth first, until emit
// returns false or ctx ends. Unreadable directories are skipped, as git and ripgrep do.
func walk(ctx context.Context, root *os.Root, start string, opt WalkOptions, emit func(file) bool) error {
	m := ignore.New(root)
	// The start directory is searched even if it is ignored: naming it is a request to see it.
	start = path.Clean(start)
	if start == "." {
		start = ""
	}
	if start != "" {
		fi, err := root.Stat(filepath.FromSlash(start))
		if err != nil {
			return err
		}
		if !fi.IsDir() {
			return &fs.PathError{Op: "search", Path: start, Err: errNotDir}
		}
	}
	// The caller owns root; a handle of the walk's own lets it close the top like any other directory.
	top, err := openTop(root, cmp.Or(start, "."))
	if err != nil {
		return err
	}
	ahead := make(chan struct{}, maxAhead)
	list := func(dir string, h dirHandle) *listing {
		l := &listing{ready: make(chan struct{})}
		defer close(l.ready)
		d := newDirRef(h, root, dir)
		entries, err := d.list()
		if err != nil {
			d.release()
			return l
		}
		slices.SortFunc(entries, func(a, b dirEntry) int { return strings.Compare(a.name, b.name) })
		l.d, l.entries = d, entries
		if !opt.IncludeIgnored {
			l.dm = m.DirWith(dir, d.readFile)
		}
		return l
	}
	// listAhead starts listing a subdirectory in the background when there is room, else returns nil.
	listAhead := func(dir string, parent *dirRef, name string) *listing {
		select {
		case ahead <- struct{}{}:
		default:
			return nil
		}
		l := &listing{ready: make(chan struct{})}
		go func() {
			defer func() { <-ahead }()
			sub, err := parent.openSub(name)
			if err != nil {
				close(l.ready)
				return
			}
			got := list(dir, sub)
			l.d, l.entries, l.dm = got.d, got.entries, got.dm
			close(l.ready)
		}()
		return l
	}
	// discard releases listings that will not be visited.
	discard := func(ls []*listing) {
		for _, l := range ls {
			if l != nil {
				<-l.ready
				if l.d != nil {
					l.d.release()
				}
			}
		}
	}
	stopped := false
	var visit func(dir string, l *listing) error
	visit = func(dir string, l *listing) error {
		<-l.ready
		d := l.d
		if d == nil {
			return nil // unreadable: skipped
		}
		defer d.release()
		if err := ctx.Err(); err != nil {
			return err
		}
		type entry struct {
			name, rel string
			isDir     bool
			typ       fs.FileMode
		}
		kept := make([]entry, 0, len(l.entries))
		var subs []*listing
		for _, e := range l.entries {
			name := e.name
			if name == ".git" || (!opt.IncludeHidden && strings.HasPrefix(name, ".")) {
				continue
			}
			rel := name
			if dir != "" {
				rel = dir + "/" + name
			}
			isDir := e.typ.IsDir()
			if l.dm != nil && l.dm.Ignored(name, isDir) {
				continue
			}
			if isDir && opt.Shallow {
				continue
			}
			kept = append(kept, entry{name, rel, isDir, e.typ})
			if isDir {
				subs = append(subs, listAhead(rel, d, name))
			}
		}
		si := 0
		for _, e := range kept {
			if e.isDir {
				sl := subs[si]
				si++
				if sl == nil {
					sub, err := d.openSub(e.name)
					if err != nil {
						continue
					}
					sl = list(e.rel, sub)
				}
				if err := visit(e.rel, sl); err != nil || stopped {
					discard(subs[si:])
					return err
				}
				continue
			}
			if !e.typ.IsRegular() && e.typ&fs.ModeSymlink == 0 {
				continue
			}
			if opt.Match != nil && !opt.Match(e.rel) {
				continue
			}
			f := file{name: e.name, rel: e.rel, link: !e.typ.IsRegular()}
			if opt.Stat || f.link {
				info, err := d.statFollow(e.name)
				if err != nil || !info.Mode().IsRegular() {
					continue
				}
				f.info = info
			}
			f.dir = d.acquire()
			if !emit(f) {
				f.release()
				stopped = true
				discard(subs[si:])
				return nil
			}
		}
		return nil
	}
	return visit(start, list(start, top))
}
