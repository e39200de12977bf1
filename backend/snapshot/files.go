package snapshot

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/rooted-dev/rooted/backend/ignore"
	"github.com/rooted-dev/rooted/backend/smallfile"
)

// bigFiles lists the files over MaxFileSize that a snapshot would otherwise record: not ignored, not in a heavy
// folder, not in .git. It walks through the project's root, each folder opened from its parent and its ignore
// files read there (by path from the root, every folder cost an open per component of its path, as the watcher's
// setup did).
func bigFiles(root *os.Root) []string {
	m := ignore.New(root)
	var out []string
	var walk func(dir string, r *os.Root)
	walk = func(dir string, r *os.Root) {
		f, err := r.Open(".")
		if err != nil {
			return
		}
		entries, err := f.ReadDir(-1)
		f.Close()
		if err != nil {
			return
		}
		dm := m.DirWith(dir, smallfile.ReaderIn(r))
		for _, e := range entries {
			name := e.Name()
			rel := path.Join(dir, name)
			if name == ".git" || dm.Ignored(name, e.IsDir()) {
				continue
			}
			if e.IsDir() {
				if !isHeavy(name) {
					if sub, err := r.OpenRoot(name); err == nil {
						walk(rel, sub)
						sub.Close()
					}
				}
				continue
			}
			if e.Type().IsRegular() {
				if info, err := e.Info(); err == nil && info.Size() > MaxFileSize {
					out = append(out, rel)
				}
			}
		}
	}
	walk("", root)
	return out
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
