package index

import (
	"os"
	"slices"
	"sync"

	"github.com/rooted-dev/rooted/backend/walk"
)

// dirCache holds folders open by their slash path, for reading files named by a list in memory; it is emptied when
// the tree's shape changes (clear).
//
// Opening a folder through the root resolves its path a component at a time (an openat each), so a file read from
// a folder not held costs three times the system calls of one from a folder held. A narrowed search of a big project
// reads its candidates from hundreds of folders: when the cache held 256 and emptied itself when full, a rare
// literal's count at 460k files spent a third of its time opening folders again. It holds more now, and when full
// lets go of the half used least recently, so the folders of the files searches keep finding stay open. A folder
// it does not hold is opened in one call (open): ten rare literals counted in turn at 460k files, 27-31 ms and
// 46-51 ms of CPU a search when each folder missed was resolved through the root, 20-27 ms and 33-44 ms (four runs)
// now.
type dirCache struct {
	mu    sync.Mutex
	m     map[string]*cachedDir
	clock uint64 // bumped by every get: a folder's last use
	gen   uint64 // bumped by every clear: a folder opened before a clear is not kept
}

type cachedDir struct {
	d    *walk.Dir
	used uint64
}

// maxOpenDirs bounds the descriptors a dirCache holds.
const maxOpenDirs = 1024

// get returns dir open, held for the caller (Release it), or nil when it cannot be opened. The folder is opened
// outside the lock, so searches' workers missing at once open theirs in parallel.
func (c *dirCache) get(root *os.Root, dir string) *walk.Dir {
	if dir == "." {
		dir = ""
	}
	if dir != "" && !walk.ValidRel(dir) {
		return nil // "..", "/etc", "a//b": never a folder of the list
	}
	c.mu.Lock()
	c.clock++
	if e := c.m[dir]; e != nil {
		e.used = c.clock
		walk.Entry{Dir: e.d}.Keep()
		c.mu.Unlock()
		return e.d
	}
	gen := c.gen
	c.mu.Unlock()
	d := c.open(root, dir)
	if d == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.m[dir]; e != nil && c.gen == gen {
		// Opened meanwhile by another worker: keep one.
		d.Release()
		e.used = c.clock
		walk.Entry{Dir: e.d}.Keep()
		return e.d
	}
	walk.Entry{Dir: d}.Keep() // the caller's hold; the cache's is the one from OpenDir
	if c.gen != gen {
		d.Release() // the tree changed while it was opened: used for this read, not kept
		return d
	}
	if len(c.m) >= maxOpenDirs {
		c.evictLocked()
	}
	if c.m == nil {
		c.m = map[string]*cachedDir{}
	}
	c.m[dir] = &cachedDir{d: d, used: c.clock}
	return d
}

// open opens dir below the project's folder, which it gets (and so holds) from the cache: one openat2, the kernel
// resolving the path without leaving the project or following a link, where resolving it through the root costs a
// call or two a component. Only the project's folder is taken from the cache: a folder held below it may since have
// been moved out of the project, and what is under it is no longer the project's. Nil when it cannot be opened.
func (c *dirCache) open(root *os.Root, dir string) *walk.Dir {
	if dir == "" {
		d, _ := walk.OpenDir(root, "")
		return d
	}
	top := c.get(root, "")
	if top == nil {
		return nil
	}
	defer top.Release()
	d, _ := top.OpenBeneath(dir)
	return d
}

// evictLocked lets go of the half of the folders used least recently.
func (c *dirCache) evictLocked() {
	used := make([]uint64, 0, len(c.m))
	for _, e := range c.m {
		used = append(used, e.used)
	}
	slices.Sort(used)
	cut := used[len(used)/2]
	for k, e := range c.m {
		if e.used <= cut {
			e.d.Release()
			delete(c.m, k)
		}
	}
}

// drop lets go of the folder at rel and those under it ("" or all: every folder), which a change may have renamed,
// removed or replaced.
func (c *dirCache) drop(rel string, all bool) {
	if all || rel == "" {
		c.clear()
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	for k, e := range c.m {
		if under(k, rel) {
			e.d.Release()
			delete(c.m, k)
		}
	}
}

func (c *dirCache) clear() {
	c.mu.Lock()
	c.gen++
	for k, e := range c.m {
		e.d.Release()
		delete(c.m, k)
	}
	c.mu.Unlock()
}
