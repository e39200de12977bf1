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
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Sentinel errors; returned wrapped in *Error with the path.
var (
	ErrBinary   = errors.New("binary file")
	ErrTooLarge = errors.New("file too large")
	ErrIsDir    = errors.New("is a directory")
	ErrNotDir   = errors.New("not a directory")
	// ErrProtected refuses a write inside a .git folder (hooks, config): what is written there runs later.
	ErrProtected = errors.New("inside .git")
)

// InGitDir reports whether the root-relative path lies in a .git folder (any case: some file systems ignore it).
func InGitDir(rel string) bool {
	for _, part := range strings.FieldsFunc(rel, func(r rune) bool { return r == '/' || r == '\\' }) {
		if strings.EqualFold(part, ".git") {
			return true
		}
	}
	return false
}

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

// realPath resolves every symbolic link along rel inside root, directories included, as the kernel would when
// opening it, and returns the root-relative path it reaches. A missing tail stays as written; a link out of the
// root is left unresolved (os.Root refuses it at the access anyway).
func realPath(root *os.Root, rel string) string {
	split := func(p string) []string {
		return strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == filepath.Separator })
	}
	parts := split(rel)
	var done []string
	for hops := 0; len(parts) > 0 && hops < 40; {
		p := parts[0]
		parts = parts[1:]
		switch p {
		case ".":
			continue
		case "..":
			if len(done) > 0 {
				done = done[:len(done)-1]
			}
			continue
		}
		cand := filepath.Join(append(done, p)...)
		fi, err := root.Lstat(cand)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			done = append(done, p)
			continue
		}
		target, err := root.Readlink(cand)
		if err != nil || filepath.IsAbs(target) {
			done = append(done, p)
			continue
		}
		hops++
		parts = append(split(target), parts...)
	}
	return filepath.Join(done...)
}

// inGitDirReally is InGitDir of rel and of the path its links lead to.
func inGitDirReally(root *os.Root, rel string) bool {
	return InGitDir(rel) || InGitDir(realPath(root, rel))
}
