package index

import (
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rooted-dev/rooted/backend/ignore"
	"github.com/rooted-dev/rooted/backend/watch"
)

// adjustLists brings the lists in memory up to date with a file created or removed, as a watcher or Rooted's own
// writes report it: the name goes in at its place in path order, or out, in a new list (searches may be walking
// the old one). Dropping the lists instead made the next search walk the whole tree for new ones (on a 460k-file
// project, seconds after each file an agent creates; an atomic write is a create). What a name alone cannot tell
// drops them: a folder that arrives with files in it, a link, a rescan. x.mu is held.
func (x *Index) adjustLists(e watch.Event) {
	if len(x.lists) == 0 {
		return
	}
	if e.Path == "" || e.Op&watch.Rescan != 0 {
		clear(x.lists)
		return
	}
	fi, err := x.root.Lstat(filepath.FromSlash(e.Path))
	gone := err != nil
	switch {
	case gone, fi.Mode().IsRegular():
	case fi.IsDir():
		if entries, err := fs.ReadDir(x.root.FS(), e.Path); err == nil && len(entries) == 0 {
			return // an empty folder: its files will be reported as they come
		}
		clear(x.lists)
		return
	default:
		clear(x.lists) // a link or something else a walk decides on by following it
		return
	}
	var matcher *ignore.Matcher
	for key, l := range x.lists {
		if !l.sorted || l.adjusted >= maxAdjust {
			delete(x.lists, key)
			continue
		}
		var next *fileList
		if gone {
			next = l.without(e.Path)
		} else {
			if !key.hidden && (strings.HasPrefix(e.Path, ".") || strings.Contains(e.Path, "/.")) {
				continue
			}
			if !key.ignored {
				if matcher == nil {
					matcher = ignore.New(x.root)
				}
				if matcher.Ignored(e.Path, false) {
					continue
				}
			}
			next = l.with(e.Path)
		}
		if next != nil {
			next.adjusted = l.adjusted + 1
			x.lists[key] = next
		}
	}
}

// maxAdjust is how many changes a list takes before it is dropped for a walk of the tree: each copies the list
// (milliseconds at 460k files) and makes the next search number it against the index again.
const maxAdjust = 256

// with is the list with rel in its place, or nil when it is there already.
func (l *fileList) with(rel string) *fileList {
	i, found := l.find(rel)
	if found {
		return nil
	}
	b := uint16(min(strings.LastIndexByte(rel, '/')+1, noBase))
	return &fileList{names: slices.Insert(slices.Clip(l.names), i, rel), base: slices.Insert(slices.Clip(l.base), i, b), sorted: true}
}

// without is the list less rel, or less everything under it (a folder removed), or nil when none of it is there.
func (l *fileList) without(rel string) *fileList {
	lo, hi := l.span(rel)
	if i, found := l.find(rel); found {
		lo, hi = i, i+1
	}
	if lo == hi {
		return nil
	}
	return &fileList{names: slices.Delete(slices.Clone(l.names), lo, hi), base: slices.Delete(slices.Clone(l.base), lo, hi), sorted: true}
}
