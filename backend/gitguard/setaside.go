package gitguard

import (
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

// SetAsideIn makes u keep a copy of whatever it removes or overwrites, in dir (outside the project, made when first
// needed), and report where.
func (u *PutBack) SetAsideIn(dir string) { u.aside = dir }

// maxKept bounds the copies one PutBack keeps (a command re-planting a path in a loop would otherwise have a
// capture held for each time).
const maxKept = 100

// keptCopy is a copy to write: what p held, captured before its put-back.
type keptCopy struct {
	p, dest string
	n       *Node
}

// keep records n, what p held when it was captured before its put-back, to be written into the set-aside folder by
// Flush: a copy written now would give a command that re-plants as fast as it can more time between each plant
// and its undoing. The copy is what was captured, so writing it later changes nothing in it.
func (u *PutBack) keep(p string, n *Node) {
	if u.aside == "" || !n.exists {
		return
	}
	if len(u.pending)+u.kept >= maxKept {
		u.said = append(u.said, "kept no copy of "+p+": "+strconv.Itoa(maxKept)+" copies were kept already")
		return
	}
	// Each copy in a folder of its own: a path put back twice in a run (the command makes it again) keeps both.
	dest := filepath.Join(u.aside, strconv.Itoa(u.kept+len(u.pending)+1), filepath.FromSlash(p))
	u.pending = append(u.pending, keptCopy{p: p, dest: dest, n: n})
}

// Flush writes the copies keep recorded, and reports where each is (or that it could not be written).
func (u *PutBack) Flush() {
	for _, c := range u.pending {
		u.kept++
		whole, err := writeNode(c.dest, c.n)
		switch {
		case err != nil:
			u.said = append(u.said, "could not keep a copy of "+c.p+" ("+err.Error()+")")
		case !whole:
			u.said = append(u.said, "kept part of "+c.p+" at "+c.dest+" (changed while the command ran: by the command, or by you)")
		default:
			u.said = append(u.said, "kept what "+c.p+" held at "+c.dest+" (changed while the command ran: by the command, or by you)")
		}
	}
	u.pending = nil
}

// writeNode writes the capture n at dest, private to the user; whole is false where the capture was partial (a
// file over the capture budget, a named pipe).
func writeNode(dest string, n *Node) (whole bool, err error) {
	if err := os.MkdirAll(filepath.Dir(dest), 0o700); err != nil {
		return false, err
	}
	switch {
	case n.mode&fs.ModeSymlink != 0:
		return true, os.Symlink(string(n.data), dest)
	case n.mode.IsDir():
		if err := os.Mkdir(dest, 0o700); err != nil {
			return false, err
		}
		whole = !n.partial
		for name, k := range n.kids {
			w, err := writeNode(filepath.Join(dest, name), k)
			if err != nil {
				return false, err
			}
			whole = whole && w
		}
		return whole, nil
	case n.mode.IsRegular():
		return !n.partial, os.WriteFile(dest, n.data, 0o600)
	}
	return false, nil
}

// RemoveKept is Remove, keeping a copy of what p held (captured within MaxCaptured) where a set-aside folder is set:
// for what a command made that cannot be told from what the user made meanwhile.
func (u *PutBack) RemoveKept(p, said string) bool {
	budget := MaxCaptured
	n := Capture(u.root, p, &budget)
	if !u.Remove(p, said) {
		return false
	}
	u.keep(p, n)
	return true
}
