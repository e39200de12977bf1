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
	"context"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/rooted-dev/rooted/backend/ignore"
)

// WalkOptions choose which files a walk yields.
type WalkOptions struct {
	IncludeHidden  bool // names starting with "."
	IncludeIgnored bool // what .gitignore and friends exclude (.git itself never)
	// Match, when set, filters files by their slash path relative to the project root.
	Match func(rel string) bool
}

// file is one file to search: its directory's root and its name there, and its slash path from the project root.
type file struct {
	dir  *os.Root
	name string
	rel  string
	info fs.FileInfo
}

// maxHeldDirs bounds the directory roots a walk keeps open for the files in them; past it, files are opened by
// their whole path through the project root (one openat per path element instead of one).
const maxHeldDirs = 512

// walk lists the files under the root-relative slash directory start, in path order. The sub-roots it keeps
// stay open until the returned close function is called.
func walk(ctx context.Context, root *os.Root, start string, opt WalkOptions) ([]file, func(), error) {
	m := ignore.New(root)
	var files []file
	var opened []*os.Root
	closeAll := func() {
		for _, r := range opened {
			r.Close()
		}
	}
	var visit func(dir string, r *os.Root) error
	visit = func(dir string, r *os.Root) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		d, err := r.Open(".")
		if err != nil {
			return err
		}
		entries, err := d.ReadDir(-1)
		d.Close()
		if err != nil {
			return err
		}
		slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
		for _, e := range entries {
			name := e.Name()
			rel := name
			if dir != "" {
				rel = dir + "/" + name
			}
			if name == ".git" || (!opt.IncludeHidden && strings.HasPrefix(name, ".")) {
				continue
			}
			isDir := e.IsDir()
			if !opt.IncludeIgnored && m.Ignored(rel, isDir) {
				continue
			}
			switch {
			case isDir:
				sub, err := r.OpenRoot(name)
				if err != nil {
					continue // unreadable directories are skipped, as rg and git do
				}
				before := len(files)
				if err := visit(rel, sub); err != nil {
					sub.Close()
					return err
				}
				switch {
				case len(files) == before:
					sub.Close()
				case len(opened) < maxHeldDirs:
					opened = append(opened, sub)
				default:
					for i := before; i < len(files); i++ {
						if files[i].dir == sub {
							files[i].dir, files[i].name = root, filepath.FromSlash(files[i].rel)
						}
					}
					sub.Close()
				}
			case e.Type().IsRegular() || e.Type()&fs.ModeSymlink != 0:
				if opt.Match != nil && !opt.Match(rel) {
					continue
				}
				info, err := r.Stat(name) // follows a symlink only while it stays inside
				if err != nil || !info.Mode().IsRegular() {
					continue
				}
				files = append(files, file{dir: r, name: name, rel: rel, info: info})
			}
		}
		return nil
	}
	// The start directory is searched even if it is ignored: naming it is a request to see it.
	start = path.Clean(start)
	if start == "." {
		start = ""
	}
	startRoot := root
	if start != "" {
		fi, err := root.Stat(filepath.FromSlash(start))
		if err != nil {
			return nil, closeAll, err
		}
		if !fi.IsDir() {
			return nil, closeAll, &fs.PathError{Op: "search", Path: start, Err: syscall.ENOTDIR}
		}
		sub, err := root.OpenRoot(filepath.FromSlash(start))
		if err != nil {
			return nil, closeAll, err
		}
		opened = append(opened, sub)
		startRoot = sub
	}
	err := visit(start, startRoot)
	return files, closeAll, err
}
