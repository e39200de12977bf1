package configfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWriteReplacesPrivately(t *testing.T) {
	path := filepath.Join(t.TempDir(), "new", "dir", "settings.json")
	if err := WriteJSON(path, map[string]int{"a": 1}); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, []byte("second\n")); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	fi, _ := os.Stat(path)
	di, _ := os.Stat(filepath.Dir(path))
	if string(b) != "second\n" || fi.Mode().Perm() != 0o600 || di.Mode().Perm() != 0o700 {
		t.Errorf("content %q, file mode %v, dir mode %v", b, fi.Mode().Perm(), di.Mode().Perm())
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
	// A value that cannot be encoded leaves the file as it was.
	if err := WriteJSON(path, func() {}); err == nil {
		t.Error("encoding a func succeeded")
	}
	if b, _ := os.ReadFile(path); string(b) != "second\n" {
		t.Errorf("after a failed write: %q", b)
	}
}
