package gitguard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// PutBack reports what it did only when it did it: an operation that fails is reported as a failure.
func TestPutBackReportsOnlyWhatItDid(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "file"), []byte("x"), 0o644)
	os.MkdirAll(filepath.Join(dir, "d"), 0o755)
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	for _, c := range []struct {
		name string
		do   func(u *PutBack) bool
		ok   bool
		want string
	}{
		{"a file written", func(u *PutBack) bool { return u.file("d/config", []byte("c"), 0o644, "restored d/config") }, true, "restored d/config"},
		{"a file whose folder is a file", func(u *PutBack) bool { return u.file("file/config", []byte("c"), 0o644, "restored file/config") }, false, "could not put back file/config"},
		{"a file whose folder is gone", func(u *PutBack) bool { return u.file("gone/config", []byte("c"), 0o644, "restored gone/config") }, false, "could not put back gone/config"},
		{"a link written", func(u *PutBack) bool { return u.link("d/l", "x", "restored d/l") }, true, "restored d/l"},
		{"a link in a file", func(u *PutBack) bool { return u.link("file/l", "x", "restored file/l") }, false, "could not put back file/l"},
		{"a rename from nothing", func(u *PutBack) bool { return u.rename("nothing", "d/x", "put back d/x") }, false, "could not put back d/x"},
		{"a removal", func(u *PutBack) bool { return u.Remove("d/l", "removed d/l") }, true, "removed d/l"},
		{"outside the root", func(u *PutBack) bool { return u.file("../escape", []byte("c"), 0o644, "restored ../escape") }, false, "could not put back ../escape"},
	} {
		u := PutBack{root: root}
		if ok := c.do(&u); ok != c.ok {
			t.Errorf("%s: %v, want %v", c.name, ok, c.ok)
		}
		if r := u.Report(); len(r) != 1 || !strings.HasPrefix(r[0], c.want) {
			t.Errorf("%s: reported %q, want %q", c.name, r, c.want)
		}
	}
	// What was too large to keep is neither written back nor removed.
	big := &Node{exists: true, mode: 0o644, partial: true}
	u := PutBack{root: root}
	u.Tree("file", big, &Node{exists: true, mode: 0o644, data: []byte("changed")})
	if b, _ := os.ReadFile(filepath.Join(dir, "file")); string(b) != "x" || len(u.Report()) != 1 || !strings.Contains(u.Report()[0], "too large") {
		t.Errorf("a file too large to keep: %q, reported %q", b, u.Report())
	}
}
