package gitguard

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
)

// While a command runs, the watcher cannot tell who changed a protected path: a path that was not there when the
// command started (a .envrc, a .vscode folder, an include target) is not bound, so the user, in an editor or a
// terminal outside the sandbox, may make it as well as the command. It is taken away all the same, since what a
// command planted there runs outside; but what it held is kept, outside the project, and the report says where:
// a user whose own file was taken loses nothing, and the command gains nothing.

// setAsideLimit bounds what one put-back keeps a copy of: past it, the rest is not copied (and the report says the
// copy is partial).
const setAsideLimit = 64 << 20

// SetAsideIn makes u keep a copy of whatever it removes or overwrites, in dir (outside the project, made when first
// needed), and report where.
func (u *PutBack) SetAsideIn(dir string) { u.aside = dir }

// keep copies p, as it is now, into the set-aside folder, links not followed, and reports where.
func (u *PutBack) keep(p string) {
	if u.aside == "" {
		return
	}
	if _, err := u.root.Lstat(p); err != nil {
		return
	}
	// Each copy in a folder of its own: a path put back twice in a run (the command makes it again) keeps both.
	u.kept++
	base := filepath.Join(u.aside, strconv.Itoa(u.kept))
	dest := filepath.Join(base, filepath.FromSlash(p))
	budget := int64(setAsideLimit)
	whole := true
	err := fs.WalkDir(u.root.FS(), p, func(q string, d fs.DirEntry, err error) error {
		if err != nil {
			whole = false
			return nil
		}
		to := filepath.Join(base, filepath.FromSlash(q))
		if err := os.MkdirAll(filepath.Dir(to), 0o700); err != nil {
			return err
		}
		switch {
		case d.IsDir():
			return os.MkdirAll(to, 0o700)
		case d.Type()&fs.ModeSymlink != 0:
			t, err := u.root.Readlink(q)
			if err == nil {
				err = os.Symlink(t, to)
			}
			return err
		case d.Type().IsRegular():
			n, ok := u.copyFile(q, to, budget)
			budget -= n
			whole = whole && ok
		default:
			whole = false // a named pipe or device: not read
		}
		return nil
	})
	switch {
	case err != nil:
		u.said = append(u.said, "could not keep a copy of "+p+" ("+err.Error()+")")
	case !whole:
		u.said = append(u.said, "kept part of "+p+" at "+dest+" (changed while the command ran: by the command, or by you)")
	default:
		u.said = append(u.said, "kept what "+p+" held at "+dest+" (changed while the command ran: by the command, or by you)")
	}
}

// copyFile copies the regular file p of the project to the path to, at most limit bytes, a final link not followed
// and a named pipe never waited on; it returns the bytes copied and whether the copy is whole.
func (u *PutBack) copyFile(p, to string, limit int64) (int64, bool) {
	f, err := u.root.OpenFile(p, os.O_RDONLY|openNoFollow, 0)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return 0, false
	}
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return 0, false
	}
	limit = max(limit, 0)
	n, err := io.Copy(out, io.LimitReader(f, limit+1))
	cut := n > limit
	if cut {
		err = out.Truncate(limit)
		n = limit
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return n, err == nil && !cut
}
