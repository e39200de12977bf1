package index

import (
	"fmt"
	"testing"

	"github.com/rooted-dev/rooted/backend/search"
)

// The folder cache holds at most maxOpenDirs folders; when full it lets go of those used least recently, so a folder
// searches keep reading from stays open, and every folder it hands out reads its files, even one let go of (or
// cleared) while a caller holds it.
func TestDirCacheKeepsTheFoldersInUse(t *testing.T) {
	files := map[string]string{}
	for i := range maxOpenDirs + 1 {
		files[fmt.Sprintf("d%04d/f.txt", i)] = fmt.Sprintf("content %d", i)
	}
	root, _ := fixture(t, files)
	var c dirCache
	t.Cleanup(c.clear)
	read := func(i int) {
		t.Helper()
		d := c.get(root, fmt.Sprintf("d%04d", i))
		if d == nil {
			t.Fatalf("folder %d not opened", i)
		}
		defer d.Release()
		data, release, err := search.ReadIn(d, "f.txt")
		if err != nil || string(data) != fmt.Sprintf("content %d", i) {
			t.Fatalf("folder %d: read %q, %v", i, data, err)
		}
		release()
	}
	held := func(i int) bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.m[fmt.Sprintf("d%04d", i)] != nil
	}
	for i := range maxOpenDirs {
		read(i)
	}
	read(0) // in use again: the most recent
	kept := c.get(root, "d0001")
	kept.Release() // d0001 used again too, then d0002...d0511 are the least recent half
	read(maxOpenDirs)
	if !held(0) || !held(1) || !held(maxOpenDirs) || !held(maxOpenDirs-1) {
		t.Error("a folder used recently was let go of")
	}
	if held(2) || len(c.m) > maxOpenDirs/2+3 {
		t.Errorf("the least recently used half was kept: %d folders", len(c.m))
	}
	// A folder held by a caller reads its files after the cache lets go of it.
	d := c.get(root, "d0005")
	c.clear()
	data, release, err := search.ReadIn(d, "f.txt")
	if err != nil || string(data) != "content 5" {
		t.Errorf("a folder held across a clear: %q, %v", data, err)
	}
	release()
	d.Release()
}
