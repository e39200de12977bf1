package files

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/testtree"
)

func noTempFiles(t *testing.T, dir string) {
	t.Helper()
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if strings.Contains(d.Name(), ".rooted-") {
			t.Errorf("temporary file left behind: %s", p)
		}
		return nil
	})
}

func TestWriteCreatesKeepsModeAndLeavesNoTemp(t *testing.T) {
	t.Parallel()
	r, dir := testtree.Root(t, nil)
	w, err := Write(r, filepath.Join("a", "b", "new.txt"), []byte("hello"), nil)
	if err != nil || !w.Created || w.Size != 5 {
		t.Fatalf("create with parents: %+v, %v", w, err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a", "b", "new.txt")); string(b) != "hello" {
		t.Errorf("content = %q", b)
	}
	for _, mode := range []fs.FileMode{0o600, 0o755, 0o640} {
		p := filepath.Join(dir, fmt.Sprintf("m%o", mode))
		if err := os.WriteFile(p, []byte("old"), mode); err != nil {
			t.Fatal(err)
		}
		os.Chmod(p, mode) // WriteFile's mode passes through the umask
		w, err := Write(r, filepath.Base(p), []byte("new"), nil)
		if err != nil || w.Created {
			t.Fatalf("overwrite: %+v, %v", w, err)
		}
		fi, _ := os.Stat(p)
		if fi.Mode().Perm() != mode {
			t.Errorf("mode after overwrite = %o, want %o", fi.Mode().Perm(), mode)
		}
	}
	if _, err := Write(r, "a", []byte("x"), nil); !errors.Is(err, ErrIsDir) {
		t.Errorf("write over a directory: %v", err)
	}
	noTempFiles(t, dir)
}

func TestWriteThroughSymlink(t *testing.T) {
	t.Parallel()
	r, dir := testtree.Root(t, nil)
	os.Mkdir(filepath.Join(dir, "d"), 0o755)
	os.WriteFile(filepath.Join(dir, "d", "real.txt"), []byte("old"), 0o644)
	os.Symlink("d/real.txt", filepath.Join(dir, "link"))
	os.Symlink("link", filepath.Join(dir, "link2"))
	os.Symlink("../outside", filepath.Join(dir, "out"))
	os.Symlink("/etc/passwd", filepath.Join(dir, "abs"))
	os.Symlink("loop", filepath.Join(dir, "loop"))

	w, err := Write(r, "link2", []byte("new"), nil)
	if err != nil || w.Rel != filepath.Join("d", "real.txt") {
		t.Fatalf("write through a chain: %+v, %v", w, err)
	}
	if fi, _ := os.Lstat(filepath.Join(dir, "link")); fi.Mode()&fs.ModeSymlink == 0 {
		t.Error("the symlink was replaced by a file")
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "d", "real.txt")); string(b) != "new" {
		t.Errorf("target content = %q", b)
	}
	for _, name := range []string{"out", "abs"} {
		if _, err := Write(r, name, []byte("x"), nil); !errors.Is(err, ErrLinkOutside) {
			t.Errorf("write through %s: %v", name, err)
		}
	}
	if _, err := Write(r, "loop", []byte("x"), nil); !errors.Is(err, ErrLinkLoop) {
		t.Errorf("write through a loop: %v", err)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(dir), "outside")); err == nil {
		t.Error("a file was created outside the root")
	}
}

func TestWritePreconditionVetoes(t *testing.T) {
	t.Parallel()
	r, dir := testtree.Root(t, nil)
	os.WriteFile(filepath.Join(dir, "f"), []byte("old"), 0o644)
	veto := errors.New("veto")
	_, err := Write(r, "f", []byte("new"), func(fs.FileInfo, func() ([]byte, error)) error { return veto })
	if !errors.Is(err, veto) {
		t.Fatalf("err = %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "f")); string(b) != "old" {
		t.Errorf("a vetoed write changed the file to %q", b)
	}
}

// The helper process writes alternating contents as fast as it can until it is killed.
func TestHelperWriter(t *testing.T) {
	dir := os.Getenv("ROOTED_HELPER_DIR")
	if dir == "" {
		t.Skip("helper process for TestKillMidWrite")
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		os.Exit(2)
	}
	a, b := bytes.Repeat([]byte("A"), 4<<20), bytes.Repeat([]byte("B"), 4<<20)
	os.WriteFile(filepath.Join(dir, "ready"), nil, 0o644)
	for i := 0; ; i++ {
		data := a
		if i%2 == 1 {
			data = b
		}
		if _, err := Write(r, "f", data, nil); err != nil {
			os.Exit(3)
		}
	}
}

// A kill at any moment leaves the file wholly old or wholly new.
func TestKillMidWrite(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "f"), bytes.Repeat([]byte("A"), 4<<20), 0o644)
	for round := range 8 {
		os.Remove(filepath.Join(dir, "ready"))
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperWriter$")
		cmd.Env = append(os.Environ(), "ROOTED_HELPER_DIR="+dir)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 500; i++ {
			if _, err := os.Stat(filepath.Join(dir, "ready")); err == nil {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		time.Sleep(time.Duration(20+round*17) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		b, err := os.ReadFile(filepath.Join(dir, "f"))
		if err != nil {
			t.Fatal(err)
		}
		if len(b) != 4<<20 || (!bytes.Equal(b, bytes.Repeat([]byte("A"), 4<<20)) && !bytes.Equal(b, bytes.Repeat([]byte("B"), 4<<20))) {
			t.Fatalf("round %d: after a kill the file is %d bytes and neither whole version", round, len(b))
		}
	}
}

func BenchmarkWrite1MB(b *testing.B) {
	r, _ := testtree.Root(b, nil)
	data := bytes.Repeat([]byte("the quick brown fox jumps over the lazy dog\n"), (1<<20)/44)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Write(r, "f.txt", data, nil); err != nil {
			b.Fatal(err)
		}
	}
}
