package gitguard

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
)

// PutBack undoes changes through the project's root and keeps the account: what it did, and what it could not do
// (with the error), never one for the other. Both go to the result the model and the user read.
type PutBack struct {
	root *os.Root
	said []string
	// aside, when set, is where a copy of what is removed or overwritten is kept (SetAsideIn).
	aside string
	kept  int // copies written so far
	// pending are the copies keep recorded, which Flush writes.
	pending []keptCopy
}

// NewPutBack puts things back in root.
func NewPutBack(root *os.Root) *PutBack { return &PutBack{root: root} }

// Report lists what was put back and what could not be, each once (with the copies kept: Flush first).
func (u *PutBack) Report() []string {
	u.Flush()
	out := slices.Clone(u.said)
	slices.Sort(out)
	return slices.Compact(out)
}

func (u *PutBack) outcome(err error, p, did string) bool {
	if err != nil {
		u.said = append(u.said, fmt.Sprintf("could not put back %s (%v)", p, err))
		return false
	}
	u.said = append(u.said, did)
	return true
}

// Remove takes away whatever is at p (a folder with its content); said is what the report says once it is gone.
func (u *PutBack) Remove(p, said string) bool {
	return u.outcome(u.root.RemoveAll(p), p, said)
}

// file replaces whatever is at p by a file holding data. Its folder must be there: a git folder the command moved
// or removed is not recreated around one file (the guard after the command moves it back whole).
func (u *PutBack) file(p string, data []byte, perm fs.FileMode, said string) bool {
	err := u.root.RemoveAll(p)
	if err == nil {
		err = u.root.WriteFile(p, data, perm)
	}
	if err == nil {
		err = u.root.Chmod(p, perm) // WriteFile's perm passes through the umask
	}
	return u.outcome(err, p, said)
}

// link replaces whatever is at p by a link to target.
func (u *PutBack) link(p, target, said string) bool {
	err := u.root.RemoveAll(p)
	if err == nil {
		err = u.root.Symlink(target, p)
	}
	return u.outcome(err, p, said)
}

// rename moves from back to p, over nothing.
func (u *PutBack) rename(from, p, said string) bool {
	return u.outcome(u.root.Rename(from, p), p, said)
}

// errTooLarge says a file was too large to keep a copy of while the command ran.
var errTooLarge = errors.New("too large to keep a copy of")

// Node is a protected path as it was: nothing, a file, a link or a folder with its entries.
type Node struct {
	exists bool
	mode   fs.FileMode
	data   []byte // a file's content, a link's target
	kids   map[string]*Node
	// partial: the budget ran out, so a file's content or some of a folder's entries were not read. What was not
	// read is never written back nor removed.
	partial bool
}

// MaxCaptured bounds what one protected path may hold in memory (files, and bytes read), so that a huge folder
// costs a bounded amount; what lies beyond is still bound read-only, but not put back where it is only watched.
const MaxCaptured = 4 << 20

// Capture records p as it is now, links not followed.
func Capture(root *os.Root, p string, budget *int) *Node {
	fi, err := root.Lstat(p)
	if err != nil {
		return &Node{}
	}
	n := &Node{exists: true, mode: fi.Mode()}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		t, _ := root.Readlink(p)
		n.data = []byte(t)
	case fi.IsDir():
		entries, _ := fs.ReadDir(root.FS(), p)
		n.kids = map[string]*Node{}
		for _, e := range entries {
			if *budget <= 0 {
				n.partial = true
				break
			}
			*budget -= 256
			n.kids[e.Name()] = Capture(root, path.Join(p, e.Name()), budget)
		}
	case fi.Mode().IsRegular() && fi.Size() <= int64(*budget):
		var err error
		n.data, err = root.ReadFile(p)
		n.partial = err != nil
		*budget -= len(n.data)
	default:
		n.partial = true
	}
	return n
}

// Folders lists p, captured as n, and every folder below it that n holds, when p was a folder.
func (n *Node) Folders(p string) []string {
	if !n.exists || !n.mode.IsDir() {
		return nil
	}
	out := []string{p}
	for name, k := range n.kids {
		out = append(out, k.Folders(path.Join(p, name))...)
	}
	return out
}

// Same reports whether two captures are alike (a folder's own mode bits aside from its type).
func Same(a, b *Node) bool {
	if a.exists != b.exists || a.mode.Type() != b.mode.Type() {
		return false
	}
	if !a.exists {
		return true
	}
	if a.mode.IsDir() {
		if len(a.kids) != len(b.kids) {
			return false
		}
		for k, ak := range a.kids {
			bk, ok := b.kids[k]
			if !ok || !Same(ak, bk) {
				return false
			}
		}
		return true
	}
	return a.mode == b.mode && !a.partial && !b.partial && bytes.Equal(a.data, b.data)
}

// Tree puts p back as want records it, from have, what is there now; it reports each path it changed.
func (u *PutBack) Tree(p string, want, have *Node) {
	switch {
	case Same(want, have):
	case !want.exists:
		u.Remove(p, "removed "+p+", which the command created")
		u.keep(p, have)
	case want.mode&fs.ModeSymlink != 0:
		u.link(p, string(want.data), "restored "+p+", which the command changed")
	case want.partial && !want.mode.IsDir():
		u.outcome(errTooLarge, p, "")
	case want.mode.IsRegular():
		u.file(p, want.data, want.mode.Perm(), "restored "+p+", which the command changed")
		u.keep(p, have)
	case want.mode.IsDir():
		if !have.exists || !have.mode.IsDir() {
			err := u.root.RemoveAll(p)
			if err == nil {
				err = u.root.Mkdir(p, want.mode.Perm())
			}
			if !u.outcome(err, p, "restored the folder "+p) {
				return
			}
			have = &Node{exists: true, mode: want.mode, kids: map[string]*Node{}}
		}
		for name, h := range have.kids {
			if _, ok := want.kids[name]; !ok && !want.partial {
				u.Tree(path.Join(p, name), &Node{}, h)
			}
		}
		for name, w := range want.kids {
			h, ok := have.kids[name]
			if !ok {
				h = &Node{}
			}
			u.Tree(path.Join(p, name), w, h)
		}
	}
}
