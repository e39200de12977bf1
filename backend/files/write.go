package files

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/rooted-dev/rooted/backend/smallfile"
)

// Sentinel errors of writing.
var (
	ErrLinkLoop    = errors.New("too many levels of symbolic links")
	ErrLinkOutside = errors.New("symlink leads outside the project root")
)

// Precondition may veto a write after seeing the file as it is now (for the stale-file check). read returns the
// current content and is only called when needed.
type Precondition func(existing fs.FileInfo, read func() ([]byte, error)) error

// WriteResult describes a completed write.
type WriteResult struct {
	// Rel is the file actually written: the target when rel named a symlink.
	Rel     string
	Size    int64
	Created bool
	Info    fs.FileInfo
}

// Write replaces rel's content atomically: a temporary file in the same directory is written, synced, given the
// existing file's mode, and renamed over rel through the root, so a crash leaves the old or the new content and
// never a mix. Missing parent directories are created. When rel is a symlink (to a file inside the root) its
// target is written, as editors do. check, when not nil, runs against the existing file before anything changes.
func Write(root *os.Root, rel string, data []byte, check Precondition) (WriteResult, error) {
	plan, err := PlanWrite(root, rel, data, check)
	if err != nil {
		return WriteResult{}, err
	}
	rel, created := plan.Rel, plan.Created
	mode := fs.FileMode(0o644)
	if !created {
		mode = plan.Info.Mode().Perm()
	}
	dir := filepath.Dir(rel)
	if dir != "." {
		if err := root.MkdirAll(dir, 0o755); err != nil {
			return WriteResult{}, err
		}
	}
	tmp := filepath.Join(dir, "."+filepath.Base(rel)+".rooted-"+randomHex()+".tmp")
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return WriteResult{}, err
	}
	committed := false
	defer func() {
		if !committed {
			_ = root.Remove(tmp)
		}
	}()
	if _, err := f.Write(data); err != nil {
		f.Close()
		return WriteResult{}, err
	}
	// The umask may have narrowed the mode given to OpenFile; an existing file keeps exactly its own.
	if err := f.Chmod(mode); err != nil {
		f.Close()
		return WriteResult{}, err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return WriteResult{}, err
	}
	if err := f.Close(); err != nil {
		return WriteResult{}, err
	}
	if err := root.Rename(tmp, rel); err != nil {
		return WriteResult{}, err
	}
	committed = true
	syncDir(root, dir)
	fi, err := root.Stat(rel)
	if err != nil {
		return WriteResult{}, err
	}
	return WriteResult{Rel: rel, Size: int64(len(data)), Created: created, Info: fi}, nil
}

// PlanWrite is Write without the write: every check a write makes (check included), with nothing changed. Its
// Info is the existing file's (nil when the write would create it).
func PlanWrite(root *os.Root, rel string, data []byte, check Precondition) (WriteResult, error) {
	rel, err := FollowLinks(root, rel)
	if err != nil {
		return WriteResult{}, err
	}
	if inGitDirReally(root, rel) {
		return WriteResult{}, &Error{Op: "write", Path: rel, Err: ErrProtected, Detail: "git runs hooks and the programs its config names outside any sandbox"}
	}
	fi, err := root.Stat(rel)
	if errors.Is(err, fs.ErrNotExist) {
		return WriteResult{Rel: rel, Size: int64(len(data)), Created: true}, nil
	}
	if err != nil {
		return WriteResult{}, err
	}
	if fi.IsDir() {
		return WriteResult{}, &Error{Op: "write", Path: rel, Err: ErrIsDir}
	}
	if !fi.Mode().IsRegular() {
		return WriteResult{}, &Error{Op: "write", Path: rel, Err: ErrNotRegular, Detail: smallfile.Kind(fi.Mode())}
	}
	if check != nil {
		if err := check(fi, func() ([]byte, error) { return ReadRegular(root, "write", rel) }); err != nil {
			return WriteResult{}, err
		}
	}
	return WriteResult{Rel: rel, Size: int64(len(data)), Info: fi}, nil
}

// syncDir makes the rename durable. Failure is not reported: the data is written and renamed either way, and some
// filesystems refuse to sync directories.
func syncDir(root *os.Root, dir string) {
	if d, err := root.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

// FollowLinks resolves symlinks in rel's last element, so a write replaces the link's target rather than the link.
// Relative and absolute targets are both mapped to root-relative names; os.Root still refuses any that leave it.
func FollowLinks(root *os.Root, rel string) (string, error) {
	for range 40 {
		fi, err := root.Lstat(rel)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return rel, nil // a missing file is created; other errors surface at the write
		}
		target, err := root.Readlink(rel)
		if err != nil {
			return "", err
		}
		// Absolute links are refused as os.Root refuses them when reading; ".." past the root is refused here
		// for a clear message, and os.Root refuses anything subtler at the write.
		next := filepath.Join(filepath.Dir(rel), target)
		if filepath.IsAbs(target) || next == ".." || strings.HasPrefix(next, ".."+string(filepath.Separator)) {
			return "", &Error{Op: "write", Path: rel, Err: ErrLinkOutside, Detail: "it points to " + target}
		}
		rel = next
	}
	return "", &Error{Op: "write", Path: rel, Err: ErrLinkLoop}
}

func randomHex() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
