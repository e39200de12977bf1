// Package files reads and lists project files. Every access goes through an *os.Root handed in by the caller, so
// nothing here can reach outside the project root; names are root-relative.
//
// Guarantees: reads never return a mix of binary garbage as text (binary files are refused with their size and a
// type guess); results that can be large are capped and say so. Not guaranteed: a file changing while it is read
// may yield either version.
package files

import (
	"errors"
	"fmt"
)

// Sentinel errors; returned wrapped in *Error with the path.
var (
	ErrBinary   = errors.New("binary file")
	ErrTooLarge = errors.New("file too large")
	ErrIsDir    = errors.New("is a directory")
	ErrNotDir   = errors.New("not a directory")
)

// Error carries what a caller needs to explain a refusal: the operation, the root-relative path and details.
type Error struct {
	Op   string
	Path string
	Err  error
	// Detail is a human explanation appended to the message ("1.2 MB, looks like a PNG image").
	Detail string
	// Size is the file's size in bytes, when known.
	Size int64
}

func (e *Error) Error() string {
	msg := fmt.Sprintf("%s %s: %v", e.Op, e.Path, e.Err)
	if e.Detail != "" {
		msg += " (" + e.Detail + ")"
	}
	return msg
}

func (e *Error) Unwrap() error { return e.Err }

// HumanSize formats a byte count the way people read it.
func HumanSize(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
