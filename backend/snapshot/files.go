package snapshot

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/rooted-dev/rooted/backend/walk"
)

// scanTree lists the files over MaxFileSize that a snapshot would otherwise record (not ignored, not in a heavy
// folder, not in .git), and the .gitignore and .gitattributes files git would open that are not regular files
// (special.go). It is the project's one walk (package walk: each folder opened from its parent, its ignore files
// read there), with heavy folders skipped. yield is called between files (background work's yielding to searches).
func scanTree(ctx context.Context, root *os.Root, yield func(context.Context)) (big, blocking []string) {
	_ = walk.Walk(ctx, root, "", walk.Options{IncludeHidden: true, Dirs: true}, func(e walk.Entry) error {
		yield(ctx)
		if e.IsDir() {
			if isHeavy(e.Name) {
				return fs.SkipDir
			}
			return nil
		}
		if isBlocking(e.Name, e.Type) {
			blocking = append(blocking, e.Rel)
		}
		if e.Type.IsRegular() {
			if size, err := e.Dir.Size(e.Name); err == nil && size > MaxFileSize {
				big = append(big, e.Rel)
			}
		}
		return nil
	})
	return big, blocking
}

func isHeavy(name string) bool {
	for _, h := range heavy {
		if strings.TrimSuffix(h, "/") == name {
			return true
		}
	}
	return false
}

// removeInside removes a file a restore found created since the snapshot, and the directories that held only it.
func removeInside(root *os.Root, rel string) error {
	p := filepath.FromSlash(rel)
	// Never through a link: a folder on the way that became a symlink (even to a folder inside the project) means
	// the file to remove is not the one the snapshot knew.
	for dir := filepath.Dir(p); dir != "." && dir != string(filepath.Separator); dir = filepath.Dir(dir) {
		if fi, err := root.Lstat(dir); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return fmt.Errorf("not removing %s: %s is now a symbolic link", rel, filepath.ToSlash(dir))
		} else if isNotExist(err) {
			return nil // already gone with its folder
		}
	}
	if err := root.Remove(p); err != nil && !isNotExist(err) {
		return err
	}
	for dir := filepath.Dir(p); dir != "." && dir != string(filepath.Separator); dir = filepath.Dir(dir) {
		if root.Remove(dir) != nil {
			break // not empty, or gone: either way stop climbing
		}
	}
	return nil
}

func isNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }

// escapeGlob makes a path a literal gitignore pattern.
func escapeGlob(p string) string {
	var b strings.Builder
	for i, c := range p {
		if strings.ContainsRune(`\*?[`, c) || (i == 0 && (c == '!' || c == '#')) {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	s := b.String()
	if strings.HasSuffix(s, " ") {
		s = strings.TrimSuffix(s, " ") + `\ `
	}
	return s
}
