package index

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
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
	for i := range maxOpenDirs - 1 { // and the project's folder, which the others are opened below: full
		read(i)
	}
	if len(c.m) != maxOpenDirs {
		t.Fatalf("%d folders held, want %d", len(c.m), maxOpenDirs)
	}
	read(0) // in use again: the most recent
	kept := c.get(root, "d0001")
	kept.Release() // d0001 used again too, then d0002...d0512 are the least recent half
	read(maxOpenDirs - 1)
	if !held(0) || !held(1) || !held(maxOpenDirs-1) || !held(maxOpenDirs-2) {
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

// A folder renamed away and another made at its path: once the change is reported, a file is read from the new
// folder, not through the descriptor of the old one; folders elsewhere stay open.
func TestDirCacheFollowsAReplacedFolder(t *testing.T) {
	root, dir := fixture(t, map[string]string{"a/f.txt": "old", "a/sub/g.txt": "old sub", "b/h.txt": "b"})
	x, err := NewIndex(root, dir, Options{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	read := func(rel, want string) {
		t.Helper()
		data, release, err := x.readByPath(rel)
		if err != nil || string(data) != want {
			t.Fatalf("%s: %q, %v; want %q", rel, data, err, want)
		}
		release()
	}
	read("a/f.txt", "old")
	read("a/sub/g.txt", "old sub")
	read("b/h.txt", "b")
	if err := os.Rename(filepath.Join(dir, "a"), filepath.Join(dir, "old-a")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "a", "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for rel, content := range map[string]string{"a/f.txt": "new", "a/sub/g.txt": "new sub"} {
		if err := os.WriteFile(filepath.Join(dir, rel), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	x.Invalidate("a", true)
	read("a/f.txt", "new")
	read("a/sub/g.txt", "new sub")
	x.dirs.mu.Lock()
	_, kept := x.dirs.m["b"]
	x.dirs.mu.Unlock()
	if !kept {
		t.Error("a folder the change did not touch was let go of")
	}
}

// A folder the cache does not hold is opened below the project's folder in one call, never through a link: a
// linked folder, one outside the project, or a path with "." or ".." in it is not opened, and a file under a link
// inside the project is still read (through the root, which follows links that stay in it). A folder the cache held,
// moved out of the project, opens nothing below it (until the watcher reports the move, the folder held itself is
// read as before).
func TestDirCacheOpensAFolderBeneathTheRoot(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	root, dir := fixture(t, map[string]string{"a/b/c/f.txt": "deep", "a/real/g.txt": "linked", "m/held/h.txt": "h", "m/other/i.txt": "i"})
	for link, target := range map[string]string{"a/link": "real", "a/out": outside} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	x, err := NewIndex(root, dir, Options{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	d := x.dirs.get(root, "a/b/c")
	if d == nil {
		t.Fatal("a/b/c not opened")
	}
	data, release, err := search.ReadIn(d, "f.txt")
	if err != nil || string(data) != "deep" {
		t.Errorf("a/b/c/f.txt: %q, %v", data, err)
	}
	release()
	d.Release()
	x.dirs.mu.Lock()
	for _, held := range []string{"", "a/b/c"} {
		if x.dirs.m[held] == nil {
			t.Errorf("%q not held after opening a/b/c", held)
		}
	}
	x.dirs.mu.Unlock()
	bad := []string{"a/out", "a/..", "a/b/../..", "a/./b", "a//b", "..", "/etc", "/a", "a/b/c/f.txt"}
	if runtime.GOOS == "linux" {
		bad = append(bad, "a/link") // elsewhere a miss goes through os.Root, which follows a link that stays inside
	}
	for _, rel := range bad {
		if d := x.dirs.get(root, rel); d != nil {
			d.Release()
			t.Errorf("%q opened as a folder of the project", rel)
		}
	}
	data, release, viaLink, err := x.readFollowing("a/link/g.txt")
	if err != nil || string(data) != "linked" || (runtime.GOOS == "linux" && !viaLink) {
		t.Errorf("a/link/g.txt: %q, %v, through the root %v", data, err, viaLink)
	}
	release()
	if data, release, _, err := x.readFollowing("a/out/secret.txt"); err == nil {
		release()
		t.Errorf("a/out/secret.txt, outside the project, read: %q", data)
	}
	// m is held (its file read), then moved out of the project, the change not reported: a folder below it that
	// was never opened is not opened from where m went.
	if d := x.dirs.get(root, "m"); d != nil {
		d.Release()
	}
	if data, release, _, err := x.readFollowing("m/held/h.txt"); err != nil || string(data) != "h" {
		t.Fatalf("m/held/h.txt: %q, %v", data, err)
	} else {
		release()
	}
	if err := os.Rename(filepath.Join(dir, "m"), filepath.Join(outside, "m")); err != nil {
		t.Fatal(err)
	}
	if data, release, _, err := x.readFollowing("m/other/i.txt"); err == nil {
		release()
		t.Errorf("m/other/i.txt read from where m went, outside the project: %q", data)
	}
}
