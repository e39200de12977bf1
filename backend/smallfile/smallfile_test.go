//go:build unix

package smallfile

import (
	"bytes"
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// within fails the test when f has not returned after a generous deadline: a read that blocks is the bug.
func within(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatalf("%s did not return: the read blocks", what)
	}
}

// layout makes one file of each kind a config or ignore location may hold, named by the kind.
func layout(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	write := func(name string, b []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("small", []byte("*.log\n"))
	write("empty", nil)
	write("limit", bytes.Repeat([]byte("x"), Limit))
	write("big", bytes.Repeat([]byte("x"), 2<<20))
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "folder"), 0o755); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("unix", filepath.Join(dir, "sock"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	// A sparse file far over the limit: reading it whole would take long and fill memory.
	f, err := os.Create(filepath.Join(dir, "sparse"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(10 << 30); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return dir
}

var cases = []struct {
	name    string
	want    []byte // content when accepted
	err     error  // the error it is refused with
	viaLink bool   // only reachable by following a link (ReadAt does not follow one)
}{
	{name: "small", want: []byte("*.log\n")},
	{name: "empty", want: []byte{}},
	{name: "limit", want: bytes.Repeat([]byte("x"), Limit)},
	{name: "big", err: ErrTooLarge},
	{name: "sparse", err: ErrTooLarge},
	{name: "fifo", err: ErrNotRegular},
	{name: "zero", err: ErrNotRegular, viaLink: true},
	{name: "folder", err: ErrNotRegular},
	{name: "sock", err: ErrNotRegular},
	{name: "missing", err: fs.ErrNotExist},
}

func TestReaders(t *testing.T) {
	t.Parallel()
	dir := layout(t)
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	d, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	readers := map[string]func(name string) ([]byte, error){
		"Read":   func(name string) ([]byte, error) { return Read(filepath.Join(dir, name)) },
		"ReadIn": func(name string) ([]byte, error) { return ReadIn(root, name) },
		"ReadAt": func(name string) ([]byte, error) { return ReadAt(int(d.Fd()), name) },
	}
	for rname, read := range readers {
		for _, c := range cases {
			t.Run(rname+"/"+c.name, func(t *testing.T) {
				var got []byte
				var err error
				within(t, rname+"("+c.name+")", func() { got, err = read(c.name) })
				want := c.err
				if rname != "Read" && c.viaLink {
					want = nil // refused for being a link: any error will do, as long as nothing is read
					if err == nil {
						t.Fatalf("%s followed a link out: %d bytes", rname, len(got))
					}
					return
				}
				if want != nil {
					if !errors.Is(err, want) {
						t.Fatalf("err = %v, want %v", err, want)
					}
					if got != nil {
						t.Fatalf("returned %d bytes with the error", len(got))
					}
					return
				}
				if err != nil || !bytes.Equal(got, c.want) {
					t.Fatalf("got %d bytes, %v; want %d bytes", len(got), err, len(c.want))
				}
			})
		}
	}
}

// ReadPrefix refuses what Read refuses for what it is, but not for its size: a file of any length gives its first
// bytes, and a sparse file far over Limit is not read beyond them.
func TestReadPrefix(t *testing.T) {
	t.Parallel()
	dir := layout(t)
	for _, c := range []struct {
		name string
		want []byte
		err  error
	}{
		{name: "small", want: []byte("*.lo")},
		{name: "empty", want: []byte{}},
		{name: "limit", want: []byte("xxxx")},
		{name: "big", want: []byte("xxxx")},
		{name: "sparse", want: []byte{0, 0, 0, 0}},
		{name: "fifo", err: ErrNotRegular},
		{name: "zero", err: ErrNotRegular},
		{name: "folder", err: ErrNotRegular},
		{name: "sock", err: ErrNotRegular},
		{name: "missing", err: fs.ErrNotExist},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got []byte
			var err error
			within(t, "ReadPrefix("+c.name+")", func() { got, err = ReadPrefix(filepath.Join(dir, c.name), 4) })
			if c.err != nil {
				if !errors.Is(err, c.err) || got != nil {
					t.Fatalf("got %d bytes, err %v; want none and %v", len(got), err, c.err)
				}
				return
			}
			if err != nil || !bytes.Equal(got, c.want) {
				t.Fatalf("got %q, %v; want %q", got, err, c.want)
			}
		})
	}
}

// A pipe with a writer that never writes: opening and reading must not wait for it.
func TestFIFOWithWriter(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := filepath.Join(dir, "exclude")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0) // so that the writer can open
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	w, err := os.OpenFile(p, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	within(t, "Read(fifo with a writer)", func() {
		if _, err := Read(p); !errors.Is(err, ErrNotRegular) {
			t.Errorf("err = %v, want ErrNotRegular", err)
		}
	})
}

func TestErrorNamesPath(t *testing.T) {
	t.Parallel()
	dir := layout(t)
	_, err := Read(filepath.Join(dir, "fifo"))
	if err == nil || !bytes.Contains([]byte(err.Error()), []byte("fifo")) || !bytes.Contains([]byte(err.Error()), []byte("named pipe")) {
		t.Fatalf("error %q should name the path and what it is", err)
	}
}
