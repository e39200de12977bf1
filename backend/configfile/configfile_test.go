package configfile

import (
	"io/fs"
	"maps"
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

// A write that fails leaves what was at the path as it was and no temporary file beside it; one that succeeds
// leaves the new content alone in the folder, user-only. WriteBatched is the same write.
func TestWriteFailsCleanly(t *testing.T) {
	for _, c := range []struct {
		name  string
		setup func(t *testing.T, dir string) string // returns the path to write
		write func(string, []byte) error
		ok    bool
	}{
		{"a new file in a new folder", func(t *testing.T, dir string) string { return filepath.Join(dir, "a", "b.json") }, Write, true},
		{"a new file, batched", func(t *testing.T, dir string) string { return filepath.Join(dir, "a", "b.json") }, WriteBatched, true},
		{"over an existing file", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "b.json")
			writeFile(t, p, "old")
			return p
		}, Write, true},
		{"over a folder that holds a file", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "b.json")
			writeFile(t, filepath.Join(p, "kept"), "old")
			return p
		}, Write, false},
		{"below a file", func(t *testing.T, dir string) string {
			writeFile(t, filepath.Join(dir, "file"), "old")
			return filepath.Join(dir, "file", "b.json")
		}, Write, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := c.setup(t, dir)
			before := tree(t, dir)
			err := c.write(path, []byte("new"))
			if !c.ok {
				if err == nil {
					t.Fatal("the write succeeded")
				}
				if after := tree(t, dir); !maps.Equal(before, after) {
					t.Fatalf("a failed write changed the folder: before %v, after %v", before, after)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			b, _ := os.ReadFile(path)
			fi, _ := os.Stat(path)
			if string(b) != "new" || fi.Mode().Perm() != 0o600 {
				t.Fatalf("content %q, mode %v", b, fi.Mode().Perm())
			}
			if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
				t.Fatalf("temporary files left behind: %v", entries)
			}
		})
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// tree maps every file and folder under dir to its content ("/" for a folder).
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			out[p] = "/"
			return nil
		}
		b, err := os.ReadFile(p)
		out[p] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// BenchmarkWrite is one 4 KB settings-sized write, with the folder's sync (Write) and without it (WriteBatched):
// what the sync that makes the rename durable costs.
func BenchmarkWrite(b *testing.B) {
	data := make([]byte, 4<<10)
	for _, c := range []struct {
		name  string
		write func(string, []byte) error
	}{{"synced", Write}, {"batched", WriteBatched}} {
		b.Run(c.name, func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "settings.json")
			for b.Loop() {
				if err := c.write(path, data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
