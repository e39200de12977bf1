package files

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"syscall"

	"github.com/rooted-dev/rooted/backend/smallfile"
)

// ErrNotRegular refuses what is not a file of bytes: a named pipe, a socket, a device. Opening a pipe for reading
// waits for a writer, and a device like /dev/zero never ends, so a tool must not read one.
var ErrNotRegular = errors.New("not a regular file")

// OpenRegular opens rel for reading through root without blocking, and returns it only if it is a regular file:
// O_NONBLOCK makes opening a named pipe return at once (it has no effect on a regular file's reads), and the type
// is checked on the open file, so a path swapped for a pipe after a stat is refused too.
func OpenRegular(root *os.Root, op, rel string) (*os.File, fs.FileInfo, error) {
	f, err := root.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		if errors.Is(err, syscall.ENXIO) { // a unix socket cannot be opened at all
			return nil, nil, &Error{Op: op, Path: rel, Err: ErrNotRegular, Detail: "a socket"}
		}
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	switch {
	case fi.IsDir():
		f.Close()
		return nil, nil, &Error{Op: op, Path: rel, Err: ErrIsDir}
	case !fi.Mode().IsRegular():
		f.Close()
		return nil, nil, &Error{Op: op, Path: rel, Err: ErrNotRegular, Detail: smallfile.Kind(fi.Mode())}
	}
	return f, fi, nil
}

// ReadRegular reads a whole regular file through root (see OpenRegular).
func ReadRegular(root *os.Root, op, rel string) ([]byte, error) {
	f, _, err := OpenRegular(root, op, rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}
