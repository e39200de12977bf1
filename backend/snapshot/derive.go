package snapshot

import (
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rooted-dev/rooted/backend/files"
	"github.com/rooted-dev/rooted/backend/ignore"
	"github.com/rooted-dev/rooted/backend/snapshot/gitobj"
)

// Deriving a snapshot's tree from the previous one: with a watcher reporting every change, a snapshot replaces
// just the changed paths' blobs and the trees above them, so its cost grows with the depth of the paths, not with
// the number of files (rewriting a 92k-entry index per edit cost ~200 ms). Objects are written by package gitobj.
// The shadow index is left as it was: it is only the full scan's stat cache, and a full scan compares it with the
// work tree anyway.

// errDeriveFallback says a change is better recorded by a full scan (a new directory, whose contents the change
// reports may not all name; a repository nested in the project, which git records as a pointer).
var errDeriveFallback = errors.New("snapshot: change needs a full scan")

// change is what became of one path: a blob with its mode, or nothing (removed).
type change struct {
	gone bool
	mode string
	sha  [20]byte
}

// editNode gathers the changes under one directory of the tree. replace says the directory is rebuilt from what
// is on disk (its walk added every file) rather than edited.
type editNode struct {
	children map[string]*editNode
	leaf     *change
	replace  bool
}

func (n *editNode) at(parts []string) *editNode {
	for _, p := range parts {
		if n.children == nil {
			n.children = map[string]*editNode{}
		}
		c := n.children[p]
		if c == nil {
			c = &editNode{}
			n.children[p] = c
		}
		n = c
	}
	return n
}

// deriver makes one derived tree.
type deriver struct {
	fsys     *os.Root
	objs     *gitobj.Store
	m        *ignore.Matcher
	prev     [20]byte
	changed  int  // paths that changed
	replaced bool // a folder was rebuilt whole
}

// derive returns the tree that is prev with the dirty paths as they are on disk now, how many paths changed, and
// whether a folder was rebuilt whole. r.mu is held.
func (r *Repo) derive(prev string, dirty []string) (string, int, bool, error) {
	prevSha, err := gitobj.Hex(prev)
	if err != nil {
		return "", 0, false, err
	}
	d := &deriver{fsys: r.fsys, objs: r.objs, m: ignore.New(r.fsys), prev: prevSha}
	root := &editNode{}
	for _, p := range dirty {
		p = path.Clean(p)
		parts := strings.Split(p, "/")
		if p == "." || parts[0] == ".git" || slices.ContainsFunc(parts, isHeavy) {
			continue
		}
		fi, err := r.fsys.Lstat(filepath.FromSlash(p))
		if err == nil && fi.IsDir() {
			// A folder created, renamed or re-scanned: its subtree is what is on disk now.
			node := root.at(parts)
			node.replace, node.leaf, node.children = true, nil, nil
			d.replaced = true
			if err := d.addFolder(p, root); err != nil {
				return "", 0, false, err
			}
			continue
		}
		if err == nil && parts[len(parts)-1] == ".git" || nestedRepo(r.fsys, path.Dir(p)) {
			return "", 0, false, errDeriveFallback // inside or at a nested repository: git records it as a pointer
		}
		c, err := d.changeOf(p)
		if err != nil {
			return "", 0, false, err
		}
		if c != nil {
			n := root.at(parts)
			if !n.replace {
				n.leaf = c
			}
		}
	}
	sha, _, err := d.apply(prevSha, true, root)
	if err != nil {
		return "", 0, false, err
	}
	return hex.EncodeToString(sha[:]), d.changed, d.replaced, nil
}

// nestedRepo reports whether dir or a folder above it (below the root) holds a .git: a repository of its own,
// which git does not look into.
func nestedRepo(fsys *os.Root, dir string) bool {
	for ; dir != "." && dir != "/" && dir != ""; dir = path.Dir(dir) {
		if _, err := fsys.Lstat(filepath.FromSlash(dir + "/.git")); err == nil {
			return true
		}
	}
	return false
}

// addFolder adds every file below the folder p that git would record.
func (d *deriver) addFolder(p string, root *editNode) error {
	f, err := d.fsys.Open(filepath.FromSlash(p))
	if err != nil {
		return err
	}
	entries, err := f.ReadDir(-1)
	f.Close()
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.Name() == ".git" {
			return errDeriveFallback // a repository of its own: git records it as a pointer to its commit
		}
	}
	for _, e := range entries {
		rel := p + "/" + e.Name()
		if isHeavy(e.Name()) {
			continue
		}
		if e.IsDir() {
			if d.m.Ignored(rel, true) {
				continue // git does not look inside an ignored folder for untracked files
			}
			if err := d.addFolder(rel, root); err != nil {
				return err
			}
			continue
		}
		c, err := d.changeOf(rel)
		if err != nil {
			return err
		}
		if c != nil && !c.gone {
			root.at(strings.Split(rel, "/")).leaf = c
		}
	}
	return nil
}

// changeOf reads what p is now. Nil: nothing to record (ignored and not in the previous snapshot).
func (d *deriver) changeOf(p string) (*change, error) {
	fi, c, err := statChange(d.fsys, p)
	if c != nil || err != nil {
		return c, err
	}
	// git keeps tracking a file that matches .gitignore once it is tracked; a new one it leaves out.
	if d.m.Ignored(p, false) {
		if tracked, err := d.inTree(d.prev, p); err != nil || !tracked {
			return nil, err
		}
	}
	return blobChange(d.fsys, d.objs, p, fi)
}

// inTree reports whether the tree holds p as a file.
func (d *deriver) inTree(tree [20]byte, p string) (bool, error) {
	parts := strings.Split(p, "/")
	for i, name := range parts {
		es, err := d.objs.ReadTree(tree)
		if err != nil {
			return false, err
		}
		j := slices.IndexFunc(es, func(e gitobj.Entry) bool { return e.Name == name })
		if j < 0 {
			return false, nil
		}
		if i == len(parts)-1 {
			return !es[j].IsDir(), nil
		}
		if !es[j].IsDir() {
			return false, nil
		}
		tree = es[j].SHA
	}
	return false, nil
}

// apply writes the tree that is sha (or an empty tree when !exists) with n's changes, and says whether it is empty.
func (d *deriver) apply(sha [20]byte, exists bool, n *editNode) ([20]byte, bool, error) {
	var es []gitobj.Entry
	if exists && !n.replace {
		got, err := d.objs.ReadTree(sha)
		if err != nil {
			return sha, false, err
		}
		es = slices.Clone(got)
	}
	for name, child := range n.children {
		i := slices.IndexFunc(es, func(e gitobj.Entry) bool { return e.Name == name })
		if child.leaf != nil && len(child.children) == 0 {
			l := child.leaf
			switch {
			case i >= 0 && !l.gone && es[i].Mode == l.mode && es[i].SHA == l.sha:
				continue // unchanged
			case i < 0 && l.gone:
				continue // gone, and never recorded
			case i >= 0 && es[i].Mode == "160000":
				return sha, false, errDeriveFallback // a nested repository's pointer: a full scan says what it is now
			}
			d.changed++
			if i >= 0 {
				es = slices.Delete(es, i, i+1)
			}
			if !l.gone {
				es = append(es, gitobj.Entry{Mode: l.mode, Name: name, SHA: l.sha})
			}
			continue
		}
		// A directory with changes below it (a path that was a file and is now a directory holds none of the file).
		var sub [20]byte
		subExists := i >= 0 && es[i].IsDir()
		if subExists {
			sub = es[i].SHA
		}
		newSub, empty, err := d.apply(sub, subExists, child)
		if err != nil {
			return sha, false, err
		}
		if i >= 0 {
			es = slices.Delete(es, i, i+1)
		}
		if !empty {
			es = append(es, gitobj.Entry{Mode: "40000", Name: name, SHA: newSub})
		}
	}
	slices.SortFunc(es, gitobj.TreeOrder)
	if len(es) == 0 {
		return [20]byte{}, true, nil
	}
	out, err := d.objs.WriteTree(es)
	return out, false, err
}

// readChange stores what p is now as a blob: a regular file's bytes or a symlink's target; gone for what git does
// not record (missing, a pipe or device, a file over MaxFileSize). A folder is errDeriveFallback.
func readChange(fsys *os.Root, o *gitobj.Store, p string) (*change, error) {
	fi, c, err := statChange(fsys, p)
	if c != nil || err != nil {
		return c, err
	}
	return blobChange(fsys, o, p, fi)
}

// statChange looks at p without following a link: a change of "gone" when nothing is there, errDeriveFallback for
// a folder, else its info.
func statChange(fsys *os.Root, p string) (fs.FileInfo, *change, error) {
	fi, err := fsys.Lstat(filepath.FromSlash(p))
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrInvalid) {
		return nil, &change{gone: true}, nil
	}
	if err != nil {
		if strings.Contains(err.Error(), "not a directory") {
			return nil, &change{gone: true}, nil
		}
		return nil, nil, err
	}
	if fi.IsDir() {
		return nil, nil, errDeriveFallback
	}
	return fi, nil, nil
}

// isEscape tells os.Root's refusal of a path that leaves the project through a link: nothing of the project is
// there to record.
func isEscape(err error) bool {
	return err != nil && strings.Contains(err.Error(), "path escapes from parent")
}

// blobChange stores what p (described by fi) holds as a blob.
func blobChange(fsys *os.Root, o *gitobj.Store, p string, fi fs.FileInfo) (*change, error) {
	var err error
	var content []byte
	mode := "100644"
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		target, err := fsys.Readlink(filepath.FromSlash(p))
		if err != nil {
			return nil, err
		}
		content, mode = []byte(filepath.ToSlash(target)), "120000"
	case !fi.Mode().IsRegular() || fi.Size() > MaxFileSize:
		return &change{gone: true}, nil // git records no pipes or devices; big files are left out
	default:
		if fi.Mode()&0o100 != 0 {
			mode = "100755"
		}
		content, err = files.ReadRegular(fsys, "snapshot", filepath.FromSlash(p))
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return &change{gone: true}, nil
			}
			return nil, err
		}
	}
	sha, err := o.Write("blob", content)
	if err != nil {
		return nil, err
	}
	return &change{mode: mode, sha: sha}, nil
}
