//go:build unix

package search

import (
	"errors"
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// openName opens the entry name of directory d for reading with one openat relative to the directory's
// descriptor. The name is a single element from readdir and O_NOFOLLOW refuses a symlink, so this cannot leave the
// directory: the guarantee os.Root gives, without the fcntl, epoll and fstat calls of an *os.File, which cost more
// than the read itself for a small file.
func openName(d *dirRef, name string) (rawFile, error) {
	fd, err := unix.Openat(d.fd, name, unix.O_RDONLY|unix.O_CLOEXEC|unix.O_NOFOLLOW, 0)
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

// dirFD returns the descriptor of the directory handle; the handle stays open while the dirRef lives.
func dirFD(h *os.File) int { return int(h.Fd()) }
