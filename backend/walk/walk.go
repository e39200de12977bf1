// Package walk lists a project's tree the way git sees it, for every part of Rooted that walks one: search and
// find, snapshots (the large files a snapshot leaves out) and the watcher (the folders it watches). There is one
// walk, so a fix to it is a fix to all of them.
//
// Guarantees: every directory and file is reached through the project's *os.Root, each folder opened from its
// parent by one name from readdir, never following a link (a folder swapped for a symlink mid-walk is not
// entered); .git is never visited; what git would ignore (package ignore: .gitignore at every level,
// .git/info/exclude, the global excludes, .ignore) is left out unless asked for, and nothing under an ignored
// folder comes back; a symlink is never a directory. Folders that cannot be read are skipped, as git and ripgrep
// skip them.
//
// Not guaranteed: a tree changing during a walk may be seen in either state, and a folder listed ahead (Ahead) is
// listed before it is visited.
package walk

import (
	"cmp"
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/rooted-dev/rooted/backend/ignore"
)

// Options choose what a walk visits and how.
type Options struct {
	IncludeHidden  bool // names starting with "."
	IncludeIgnored bool // what .gitignore and friends exclude (.git itself never)
	// Ignore is the matcher to answer with (a watcher keeps one per set of rules); nil: a new one for this walk.
	Ignore *ignore.Matcher
	// Dirs visits directories too, before what they hold; returning fs.SkipDir for one leaves it unopened.
	Dirs bool
	// MaxDepth bounds how deep the walk goes: 1 visits only the start directory's entries (0: no bound).
	MaxDepth int
	// Sorted visits each directory's entries in name order, so the whole walk is in path order.
	Sorted bool
	// Ahead lists up to this many directories in parallel, ahead of the visit (reading directories is a good
	// part of a search's system calls); 0 lists each when it is visited.
	Ahead int
	// Pacer, when set, is asked before each folder listed ahead: a search walking one workspace pauses there while
	// another workspace's edit runs (sched.Lane.Pace), as its own steps do.
	Pacer Pacer
}

// Pacer is what holds a walk's read-ahead back at its steps.
type Pacer interface {
	// Pace returns when the walk may go on; it returns early when ctx ends.
	Pace(ctx context.Context)
	// Holding reports whether Pace would wait now: no folder is then listed ahead (the walk lists it when it gets
	// there), since a listing, once started, runs to its end.
	Holding() bool
}

// Entry is one visited name: a file of any type, or, with Options.Dirs, a directory.
type Entry struct {
	// Dir is the open directory that holds the entry, valid during the visit; Keep holds it longer. It is nil for
	// entries that come from a list in memory rather than from the disk.
	Dir  *Dir
	Name string
	Rel  string      // slash path from the project root
	Type fs.FileMode // type bits only: 0 for a regular file, fs.ModeDir, fs.ModeSymlink, or fs.ModeIrregular
}

// IsDir reports whether the entry is a directory (a symlink to one is not).
func (e Entry) IsDir() bool { return e.Type.IsDir() }

// Keep holds the entry's directory open past the visit, until Release.
func (e Entry) Keep() Entry {
	if e.Dir != nil {
		e.Dir.refs.Add(1)
	}
	return e
}

// Release lets go of an entry returned by Keep.
func (e Entry) Release() {
	if e.Dir != nil {
		e.Dir.release()
	}
}

// Dir is an open directory of the walk, shared by the walk and the entries kept from it; it closes after the
// last release.
type Dir struct {
	h       handle
	project *os.Root // for what must follow symlinks: os.Root follows them only while they stay inside
	rel     string   // slash path from the project root
	refs    atomic.Int32
}

func newDir(h handle, project *os.Root, rel string) *Dir {
	d := &Dir{h: h, project: project, rel: rel}
	d.refs.Store(1) // the walk's, while it visits the directory
	return d
}

func (d *Dir) release() {
	if d.refs.Add(-1) == 0 {
		d.h.close()
	}
}

// OpenDir opens the root-relative slash directory rel through root, for reading files from a list in memory by
// their names (see Entry.Dir); the caller releases it.
func OpenDir(root *os.Root, rel string) (*Dir, error) {
	h, err := openTop(root, cmp.Or(rel, "."))
	if err != nil {
		return nil, err
	}
	return newDir(h, root, rel), nil
}

// OpenBeneath opens the folder at the slash path rel below d, for the caller to release. On Linux the kernel
// resolves it in one call (openat2), never above d and never through a link, where OpenDir resolves a path from the
// root a component at a time; elsewhere, or on a kernel without openat2, it is OpenDir, through the project's root,
// which follows links only while they stay inside it. rel is a ValidRel path.
func (d *Dir) OpenBeneath(rel string) (*Dir, error) {
	if !ValidRel(rel) {
		return nil, &os.PathError{Op: "open", Path: rel, Err: os.ErrInvalid}
	}
	full := path.Join(d.rel, rel)
	h, ok, err := d.h.openBeneath(rel)
	if !ok {
		return OpenDir(d.project, full)
	}
	if err != nil {
		return nil, err
	}
	return newDir(h, d.project, full), nil
}

// ValidRel reports whether rel is a slash path of the project as a walk names one: not "", not starting or ending
// with "/", and no element empty, "." or "..". Unlike fs.ValidPath it takes any bytes in a name, as the file system
// does.
func ValidRel(rel string) bool {
	if rel == "" {
		return false
	}
	for elem := range strings.SplitSeq(rel, "/") {
		if elem == "" || elem == "." || elem == ".." {
			return false
		}
	}
	return true
}

// Release lets go of a directory from OpenDir (or held by Keep).
func (d *Dir) Release() { d.release() }

// Project is the root the walk runs in.
func (d *Dir) Project() *os.Root { return d.project }

// Open opens a file of the directory by its name, not following a link, and without waiting on a named pipe.
func (d *Dir) Open(name string) (File, error) { return d.h.open(name) }

// Size is the size of a file of the directory, not following a link.
func (d *Dir) Size(name string) (int64, error) { return d.h.lstat(name) }

// Identity is what a file's stat says of its content: a change to the file changes it (the change time is set
// by the kernel on every change; 0 where it is not read).
type Identity struct{ Size, Mtime, Ctime int64 }

// Identity stats a file of the directory, not following a link, by its name from the directory's descriptor:
// one system call, where StatFollow resolves the path from the root (on a 460k-file tree, seconds).
func (d *Dir) Identity(name string) (Identity, error) { return d.h.identity(name) }

// StatFollow stats a file of the directory following symlinks, through the project root (which follows a link
// only while it stays inside).
func (d *Dir) StatFollow(name string) (fs.FileInfo, error) {
	return d.project.Stat(filepath.FromSlash(path.Join(d.rel, name)))
}

// entry is a name from a directory listing and its type bits.
type entry struct {
	name string
	typ  fs.FileMode
}

// listing is a directory read, maybe ahead of its visit.
type listing struct {
	ready   chan struct{}
	d       *Dir
	entries []entry
	rules   *ignore.Dir
}

// walker is one walk's state.
type walker struct {
	ctx   context.Context
	root  *os.Root
	opt   Options
	visit func(Entry) error
	ahead chan struct{} // tokens for directories listed ahead
	stop  error         // fs.SkipAll or the visitor's error: the walk ends
}

// Walk visits the entries under the root-relative slash directory start, depth first, until visit returns
// fs.SkipAll or another error (returned) or ctx ends. start itself is walked even if it is ignored or hidden:
// naming it is a request to see it; it is not visited.
func Walk(ctx context.Context, root *os.Root, start string, opt Options, visit func(Entry) error) error {
	start = path.Clean(filepath.ToSlash(start))
	if start == "." || start == "/" {
		start = ""
	}
	if start != "" {
		fi, err := root.Stat(filepath.FromSlash(start))
		if err != nil {
			return err
		}
		if !fi.IsDir() {
			return &fs.PathError{Op: "walk", Path: start, Err: ErrNotDir}
		}
	}
	// The caller owns root; a handle of the walk's own lets it close the top like any other directory.
	top, err := openTop(root, cmp.Or(start, "."))
	if err != nil {
		return err
	}
	if opt.Ignore == nil && !opt.IncludeIgnored {
		opt.Ignore = ignore.New(root)
	}
	w := &walker{ctx: ctx, root: root, opt: opt, visit: visit}
	if opt.Ahead > 0 {
		w.ahead = make(chan struct{}, opt.Ahead)
	}
	w.dir(start, 1, w.list(start, top))
	if errors.Is(w.stop, fs.SkipAll) {
		return nil
	}
	return w.stop
}

// list reads the directory open as h.
func (w *walker) list(rel string, h handle) *listing {
	l := &listing{ready: make(chan struct{})}
	defer close(l.ready)
	d := newDir(h, w.root, rel)
	entries, err := d.h.list()
	if err != nil {
		d.release()
		return l
	}
	if w.opt.Sorted {
		slices.SortFunc(entries, func(a, b entry) int { return strings.Compare(a.name, b.name) })
	}
	l.d, l.entries = d, entries
	if !w.opt.IncludeIgnored {
		l.rules = w.opt.Ignore.DirWith(rel, listedOnly(entries, d.h.readFile))
	}
	return l
}

// listedOnly reads only the names the listing holds: most folders have no ignore file, and asking for
// .gitignore and .ignore in each cost two failed opens a folder (on a 92k-file tree, 21k system calls).
func listedOnly(entries []entry, read func(string) ([]byte, error)) func(string) ([]byte, error) {
	var dotted []string // ignore files are dot files: a folder has few
	for _, e := range entries {
		if strings.HasPrefix(e.name, ".") {
			dotted = append(dotted, e.name)
		}
	}
	return func(name string) ([]byte, error) {
		if !slices.Contains(dotted, name) {
			return nil, fs.ErrNotExist
		}
		return read(name)
	}
}

// listAhead starts listing the subdirectory name of parent in the background when there is room, else returns nil.
func (w *walker) listAhead(rel string, parent *Dir, name string) *listing {
	if w.opt.Pacer != nil && w.opt.Pacer.Holding() {
		return nil
	}
	select {
	case w.ahead <- struct{}{}:
	default:
		return nil
	}
	l := &listing{ready: make(chan struct{})}
	parent.refs.Add(1)
	go func() {
		defer func() { <-w.ahead }()
		defer parent.release()
		if w.opt.Pacer != nil {
			w.opt.Pacer.Pace(w.ctx)
		}
		sub, err := parent.h.openSub(name)
		if err != nil {
			close(l.ready)
			return
		}
		got := w.list(rel, sub)
		l.d, l.entries, l.rules = got.d, got.entries, got.rules
		close(l.ready)
	}()
	return l
}

// discard releases listings that will not be visited.
func discard(ls []*listing) {
	for _, l := range ls {
		if l != nil {
			<-l.ready
			if l.d != nil {
				l.d.release()
			}
		}
	}
}

// dir visits the entries of the directory rel, listed by l, at depth (1 for the start's entries).
func (w *walker) dir(rel string, depth int, l *listing) {
	<-l.ready
	d := l.d
	if d == nil {
		return // unreadable: skipped
	}
	defer d.release()
	if err := w.ctx.Err(); err != nil {
		w.stop = err
		return
	}
	descend := w.opt.MaxDepth == 0 || depth < w.opt.MaxDepth
	kept := make([]Entry, 0, len(l.entries))
	var subs []*listing // listings ahead, one per kept directory when descending
	for _, e := range l.entries {
		if e.name == ".git" || (!w.opt.IncludeHidden && strings.HasPrefix(e.name, ".")) {
			continue
		}
		isDir := e.typ.IsDir()
		if l.rules != nil && l.rules.Ignored(e.name, isDir) {
			continue
		}
		if isDir && !descend && !w.opt.Dirs {
			continue
		}
		er := e.name
		if rel != "" {
			er = rel + "/" + e.name
		}
		kept = append(kept, Entry{Dir: d, Name: e.name, Rel: er, Type: e.typ})
		if isDir && descend {
			var ahead *listing
			if w.ahead != nil {
				ahead = w.listAhead(er, d, e.name)
			}
			subs = append(subs, ahead)
		}
	}
	si := 0
	for _, e := range kept {
		var sl *listing
		if e.IsDir() && descend {
			sl = subs[si]
			si++
		}
		if !e.IsDir() || w.opt.Dirs {
			if err := w.visit(e); err != nil {
				if errors.Is(err, fs.SkipDir) && e.IsDir() {
					discard([]*listing{sl})
					continue
				}
				w.stop = err
				discard(subs[si:])
				discard([]*listing{sl})
				return
			}
		}
		if !e.IsDir() || !descend {
			continue
		}
		if sl == nil {
			sub, err := d.h.openSub(e.Name)
			if err != nil {
				continue
			}
			sl = w.list(e.Rel, sub)
		}
		w.dir(e.Rel, depth+1, sl)
		if w.stop != nil {
			discard(subs[si:])
			return
		}
	}
}
