//go:build unix

package search

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/unix"
)

// dirHandle is an open directory descriptor. Directories and files are opened by a single name from readdir,
// relative to their parent's descriptor, with O_NOFOLLOW: such a name cannot leave the directory, which is the
// guarantee os.Root gives, without the several fcntl, epoll and fstat calls an *os.File or *os.Root costs. Those
// calls took more time than reading the files. The top directory comes from the project's os.Root.
type dirHandle struct{ fd int }

var errNotDir = syscall.ENOTDIR

func openTop(root *os.Root, rel string) (dirHandle, error) {
	f, err := root.Open(filepath.FromSlash(rel))
	if err != nil {
		return dirHandle{}, err
	}
	defer f.Close()
	// A descriptor of our own, independent of the *os.File's lifetime.
	fd, err := unix.Openat(int(f.Fd()), ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return dirHandle{}, &os.PathError{Op: "open", Path: rel, Err: err}
	}
	return dirHandle{fd}, nil
}

func (h dirHandle) openSub(name string) (dirHandle, error) {
	fd, err := unix.Openat(h.fd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return dirHandle{}, &os.PathError{Op: "open", Path: name, Err: err}
	}
	return dirHandle{fd}, nil
}

func (h dirHandle) close() { unix.Close(h.fd) }

func (h dirHandle) list() ([]dirEntry, error) { return listFD(h.fd) }

// readFile reads a small file of the directory (an ignore file); nil and the error when it is missing.
func (h dirHandle) readFile(name string) ([]byte, error) {
	f, err := openName(h, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// openName opens a file of directory h for reading.
func openName(h dirHandle, name string) (rawFile, error) {
	// O_NONBLOCK: a file swapped for a named pipe after readdir must not hang the search in open.
	fd, err := unix.Openat(h.fd, name, unix.O_RDONLY|unix.O_CLOEXEC|unix.O_NOFOLLOW|unix.O_NONBLOCK, 0)
	if err != nil {
		return rawFile(-1), &os.PathError{Op: "open", Path: name, Err: err}
	}
	return rawFile(fd), nil
}

type rawFile int

func (f rawFile) Read(p []byte) (int, error) {
	for {
		n, err := unix.Read(int(f), p)
		switch {
		case errors.Is(err, unix.EINTR):
			continue
		case err != nil:
			return 0, err
		case n == 0 && len(p) > 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

func (f rawFile) Close() error { return unix.Close(int(f)) }

func (f rawFile) size() (int64, error) {
	var st unix.Stat_t
	if err := unix.Fstat(int(f), &st); err != nil {
		return 0, err
	}
	return st.Size, nil
}

// mapAll maps the first size bytes of the file (its size as size() just gave it), read-only, and returns them with
// the function that unmaps them. Touching a page past the end of a file that shrank meanwhile faults: only a
// goroutine that has called debug.SetPanicOnFault(true) and recovers may touch the bytes (see Search's workers).
// What is not a regular file either cannot be mapped (a pipe, a socket) or has no size to map (a device).
func (f rawFile) mapAll(size int64) ([]byte, func(), error) {
	if size <= 0 || size > maxFileBytes {
		return nil, nil, errNotMapped
	}
	b, err := unix.Mmap(int(f), 0, int(size), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return nil, nil, err
	}
	return b, func() { unix.Munmap(b) }, nil
}
