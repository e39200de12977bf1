// Package smallfile reads the small files Rooted reads for itself: ignore files, git configuration, the project's
// instruction files (AGENTS.md and friends), and Rooted's own settings, providers, recent projects and
// conversations. Such a file is opened without blocking (O_NONBLOCK: opening a named pipe returns at once instead
// of waiting for a writer), used only if the open file is a regular file (checked with fstat, so a path swapped
// for a pipe or a device after a stat is refused too), and read up to Limit bytes: a larger file is refused with
// ErrTooLarge, and a warning is logged once per path, so a link to /dev/zero or a giant file cannot hang a call
// or fill memory. Read takes a plain path (files outside any project); ReadIn reads through an *os.Root;
// ReadPrefix reads only a file's first bytes, whatever its size, for a format read only from its start.
//
// Not covered: what the bytes mean. A file that shrinks or grows while it is read is read as far as Limit allows.
package smallfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"syscall"
)

// Limit is the most a file read for Rooted's own use may hold: 1 MiB.
const Limit = 1 << 20

// Errors a caller can tell apart; both come wrapped in an *Error naming the path.
var (
	// ErrNotRegular refuses what is not a file of bytes: a named pipe, a socket, a device, a folder.
	ErrNotRegular = errors.New("not a regular file")
	// ErrTooLarge refuses a file over Limit.
	ErrTooLarge = errors.New("too large")
)

// Error says which file was refused and why.
type Error struct {
	Path string
	Err  error  // ErrNotRegular or ErrTooLarge
	Kind string // for ErrNotRegular: what the file is ("a named pipe (FIFO)", "a character device", ...)
	Size int64  // for ErrTooLarge: the size seen
}

func (e *Error) Error() string {
	if e.Kind != "" {
		return fmt.Sprintf("%s: %v: %s", e.Path, e.Err, e.Kind)
	}
	if e.Size > 0 {
		return fmt.Sprintf("%s: %v (%d bytes or more)", e.Path, e.Err, e.Size)
	}
	return fmt.Sprintf("%s: %v", e.Path, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// flags open a file for reading without blocking on a pipe and without leaking into child processes.
const flags = os.O_RDONLY | syscall.O_NONBLOCK | syscall.O_CLOEXEC

// Read reads the file at path (a plain path, for files outside any project). A missing file is an error for
// which errors.Is(err, fs.ErrNotExist) holds, as with os.ReadFile.
func Read(path string) ([]byte, error) { return ReadMax(path, Limit) }

// ReadMax is Read with another limit, for Rooted's own files that grow with use (a conversation).
func ReadMax(path string, limit int64) ([]byte, error) {
	f, err := os.OpenFile(path, flags, 0)
	if err != nil {
		return nil, opened(path, err)
	}
	defer f.Close()
	return readOpen(f, path, limit)
}

// ReadPrefix reads the first n bytes of the file at path (all of it when shorter), whatever the file's size: for
// a reader that looks only at a file's start, as git does at a HEAD, where a larger file is not refused. The file
// is opened and refused as by Read (never blocking, a regular file only, a final link followed); a missing file
// is an error for which errors.Is(err, fs.ErrNotExist) holds.
func ReadPrefix(path string, n int) ([]byte, error) {
	f, err := os.OpenFile(path, flags, 0)
	if err != nil {
		return nil, opened(path, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := regular(path, fi.Mode()); err != nil {
		return nil, err
	}
	buf := make([]byte, max(n, 0))
	got, err := io.ReadFull(f, buf)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return buf[:got], nil
}

// ReadIn reads name through root: the file cannot be outside it (see os.Root).
func ReadIn(root *os.Root, name string) ([]byte, error) { return ReadInMax(root, name, Limit) }

// ReadInMax is ReadIn with another limit, for a file that grows with the project (git's packed-refs).
func ReadInMax(root *os.Root, name string, limit int64) ([]byte, error) {
	f, err := root.OpenFile(name, flags, 0)
	if err != nil {
		return nil, opened(filepath.Join(root.Name(), name), err)
	}
	defer f.Close()
	return readOpen(f, filepath.Join(root.Name(), name), limit)
}

// ReaderIn returns ReadIn bound to root, in the shape walkers pass around (ignore.Matcher.DirWith).
func ReaderIn(root *os.Root) func(name string) ([]byte, error) {
	return func(name string) ([]byte, error) { return ReadIn(root, name) }
}

// opened classifies an open failure: a unix socket cannot be opened at all (ENXIO).
func opened(path string, err error) error {
	if errors.Is(err, syscall.ENXIO) {
		return refuse(&Error{Path: path, Err: ErrNotRegular, Kind: "a socket"})
	}
	return err
}

func readOpen(f *os.File, path string, limit int64) ([]byte, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := check(path, fi.Mode(), fi.Size(), limit); err != nil {
		return nil, err
	}
	return readLimited(f, path, fi.Size(), limit)
}

// check refuses a file by its mode and size (from fstat of the open file) under the rules above.
func check(path string, mode fs.FileMode, size, limit int64) error {
	if err := regular(path, mode); err != nil {
		return err
	}
	if size > limit {
		return refuse(&Error{Path: path, Err: ErrTooLarge, Size: size})
	}
	return nil
}

// regular refuses what is not a regular file, by the mode fstat gave for the open file.
func regular(path string, mode fs.FileMode) error {
	if !mode.IsRegular() {
		return refuse(&Error{Path: path, Err: ErrNotRegular, Kind: Kind(mode)})
	}
	return nil
}

// readLimited reads r (a file check accepted, of about size bytes) to its end, refusing it when it turns out to
// hold more than limit bytes (it grew since the stat).
func readLimited(r io.Reader, path string, size, limit int64) ([]byte, error) {
	b := make([]byte, 0, min(max(size, 0), limit)+1)
	for {
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if int64(len(b)) > limit {
			return nil, refuse(&Error{Path: path, Err: ErrTooLarge, Size: int64(len(b))})
		}
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return nil, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // grow
		}
	}
}

// warned keeps the paths already warned about, so a walk that meets the same file again says it once.
var warned sync.Map

// refuse logs a warning, once per path and reason, that the file is skipped, and returns e.
func refuse(e *Error) error {
	if _, seen := warned.LoadOrStore(e.Path+"\x00"+e.Err.Error(), true); !seen {
		slog.Warn("file skipped", "path", e.Path, "reason", e.Err.Error(), "kind", e.Kind, "size", e.Size)
	}
	return e
}

// Kind names what a file that is not a regular file is, for messages.
func Kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	}
	return "not a file of bytes"
}
