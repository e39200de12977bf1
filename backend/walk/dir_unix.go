//go:build unix

package walk

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/rooted-dev/rooted/backend/smallfile"
)

// handle is an open directory descriptor. Directories and files are opened by a single name from readdir,
// relative to their parent's descriptor, with O_NOFOLLOW: such a name cannot leave the directory, which is the
// guarantee os.Root gives, without the several fcntl, epoll and fstat calls an *os.File or *os.Root costs. Those
// calls took more time than reading the files. The top directory comes from the project's os.Root.
type handle struct{ fd int }

// ErrNotDir is the error of a walk started at something that is not a directory.
var ErrNotDir error = syscall.ENOTDIR

func openTop(root *os.Root, rel string) (handle, error) {
	f, err := root.Open(filepath.FromSlash(rel))
	if err != nil {
		return handle{}, err
	}
	defer f.Close()
	// A descriptor of our own, independent of the *os.File's lifetime.
	fd, err := unix.Openat(int(f.Fd()), ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return handle{}, &os.PathError{Op: "open", Path: rel, Err: err}
	}
	return handle{fd}, nil
}

func (h handle) openSub(name string) (handle, error) {
	fd, err := unix.Openat(h.fd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return handle{}, &os.PathError{Op: "open", Path: name, Err: err}
	}
	return handle{fd}, nil
}

func (h handle) close() { unix.Close(h.fd) }

func (h handle) list() ([]entry, error) { return listFD(h.fd) }

// readFile reads a small file of the directory (an ignore file) as Rooted reads its own files: never blocking,
// a regular file only, at most smallfile.Limit; nil and the error when it is missing or refused.
func (h handle) readFile(name string) ([]byte, error) { return smallfile.ReadAt(h.fd, name) }

// open opens a file of the directory for reading.
func (h handle) open(name string) (File, error) {
	// O_NONBLOCK: a file swapped for a named pipe after readdir must not hang the walk in open.
	fd, err := unix.Openat(h.fd, name, unix.O_RDONLY|unix.O_CLOEXEC|unix.O_NOFOLLOW|unix.O_NONBLOCK, 0)
	if err != nil {
		return File{-1}, &os.PathError{Op: "open", Path: name, Err: err}
	}
	return File{fd}, nil
}

// lstat describes a file of the directory, not following a link.
func (h handle) lstat(name string) (size int64, err error) {
	var st unix.Stat_t
	if err := unix.Fstatat(h.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return 0, &os.PathError{Op: "lstat", Path: name, Err: err}
	}
	return st.Size, nil
}

// identity is what a stat of a file of the directory says of its content, not following a link: one fstatat.
func (h handle) identity(name string) (Identity, error) {
	var st unix.Stat_t
	if err := unix.Fstatat(h.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return Identity{}, &os.PathError{Op: "lstat", Path: name, Err: err}
	}
	return Identity{Size: st.Size, Mtime: st.Mtim.Nano(), Ctime: st.Ctim.Nano()}, nil
}

// File is a file opened from a walked directory by its name: a bare descriptor, read with read(2).
type File struct{ fd int }

func (f File) Read(p []byte) (int, error) {
	for {
		n, err := unix.Read(f.fd, p)
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

// Close closes the file.
func (f File) Close() error { return unix.Close(f.fd) }

// Size is the file's size now.
func (f File) Size() (int64, error) {
	var st unix.Stat_t
	if err := unix.Fstat(f.fd, &st); err != nil {
		return 0, err
	}
	return st.Size, nil
}
