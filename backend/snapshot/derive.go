package snapshot

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/rooted-dev/rooted/backend/files"
	"github.com/rooted-dev/rooted/backend/ignore"
)

// Deriving a snapshot's tree from the previous one: with a watcher reporting every change, a snapshot replaces
// just the changed paths' blobs and the trees above them, so its cost grows with the depth of the paths, not with
// the number of files (rewriting a 92k-entry index per edit cost ~200 ms). Objects are written as git writes
// loose objects (zlib of "type size\0content", named by SHA-1); trees are read through one long-lived
// git cat-file --batch, which sees packed objects too. The shadow index is left as it was: it is only the
// full scan's stat cache, and a full scan compares it with the work tree anyway.

// errDeriveFallback says a change is better recorded by a full scan (a new directory, whose contents the change
// reports may not all name).
var errDeriveFallback = errors.New("snapshot: change needs a full scan")

type treeEntry struct {
	mode string // "100644", "100755", "120000", "40000", "160000"
	name string
	sha  [20]byte
}

func (e treeEntry) isDir() bool { return e.mode == "40000" }

// objects reads and writes the shadow repository's objects.
type objects struct {
	dir   string // the repository
	cat   *exec.Cmd
	in    io.WriteCloser
	out   *bufio.Reader
	trees map[[20]byte][]treeEntry
}

func (o *objects) close() {
	if o.cat != nil {
		o.in.Close()
		o.cat.Wait()
		o.cat = nil
	}
}

// readTree returns a tree's entries, from the cache or git cat-file.
func (o *objects) readTree(sha [20]byte) ([]treeEntry, error) {
	if es, ok := o.trees[sha]; ok {
		return es, nil
	}
	if o.cat == nil {
		cmd := exec.Command(gitPath(), "cat-file", "--batch")
		cmd.Env = append(os.Environ(), "GIT_DIR="+o.dir, "GIT_CONFIG_NOSYSTEM=1")
		in, err := cmd.StdinPipe()
		if err != nil {
			return nil, err
		}
		out, err := cmd.StdoutPipe()
		if err != nil {
			return nil, err
		}
		if err := cmd.Start(); err != nil {
			return nil, err
		}
		o.cat, o.in, o.out = cmd, in, bufio.NewReaderSize(out, 64<<10)
	}
	if _, err := fmt.Fprintf(o.in, "%x\n", sha); err != nil {
		o.close()
		return nil, err
	}
	head, err := o.out.ReadString('\n')
	if err != nil {
		o.close()
		return nil, err
	}
	f := strings.Fields(head)
	if len(f) != 3 || f[1] != "tree" {
		return nil, fmt.Errorf("snapshot: object %x is not a tree: %q", sha, strings.TrimSpace(head))
	}
	size, err := strconv.Atoi(f[2])
	if err != nil {
		return nil, err
	}
	body := make([]byte, size+1) // and the newline after it
	if _, err := io.ReadFull(o.out, body); err != nil {
		o.close()
		return nil, err
	}
	es, err := parseTree(body[:size])
	if err != nil {
		return nil, err
	}
	if o.trees == nil || len(o.trees) > 50000 {
		o.trees = map[[20]byte][]treeEntry{}
	}
	o.trees[sha] = es
	return es, nil
}

func parseTree(b []byte) ([]treeEntry, error) {
	var es []treeEntry
	for len(b) > 0 {
		sp := bytes.IndexByte(b, ' ')
		nul := bytes.IndexByte(b, 0)
		if sp < 0 || nul < sp || len(b) < nul+21 {
			return nil, errors.New("snapshot: malformed tree object")
		}
		e := treeEntry{mode: string(b[:sp]), name: string(b[sp+1 : nul])}
		copy(e.sha[:], b[nul+1:nul+21])
		es = append(es, e)
		b = b[nul+21:]
	}
	return es, nil
}

// treeOrder is git's: names compare as bytes, a directory's as if it ended in "/".
func treeOrder(a, b treeEntry) int {
	an, bn := a.name, b.name
	if a.isDir() {
		an += "/"
	}
	if b.isDir() {
		bn += "/"
	}
	return strings.Compare(an, bn)
}

func encodeTree(es []treeEntry) []byte {
	var b bytes.Buffer
	for _, e := range es {
		b.WriteString(e.mode)
		b.WriteByte(' ')
		b.WriteString(e.name)
		b.WriteByte(0)
		b.Write(e.sha[:])
	}
	return b.Bytes()
}

// write stores an object unless it is already stored loose, and returns its name.
func (o *objects) write(kind string, content []byte) ([20]byte, error) {
	header := kind + " " + strconv.Itoa(len(content)) + "\x00"
	h := sha1.New()
	h.Write([]byte(header))
	h.Write(content)
	var sha [20]byte
	copy(sha[:], h.Sum(nil))
	name := hex.EncodeToString(sha[:])
	p := filepath.Join(o.dir, "objects", name[:2], name[2:])
	if _, err := os.Stat(p); err == nil {
		return sha, nil
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return sha, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), "tmp_obj_")
	if err != nil {
		return sha, err
	}
	zw, _ := zlib.NewWriterLevel(tmp, zlib.BestSpeed)
	_, err = zw.Write([]byte(header))
	if err == nil {
		_, err = zw.Write(content)
	}
	if err == nil {
		err = zw.Close()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		os.Chmod(tmp.Name(), 0o444)
		err = os.Rename(tmp.Name(), p)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return sha, err
}

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

// derive returns the tree that is prev with the dirty paths as they are on disk now.
func (r *Repo) derive(prev string, dirty []string) (string, error) {
	if r.objs == nil {
		r.objs = &objects{dir: r.dir}
	}
	var prevSha [20]byte
	if _, err := hex.Decode(prevSha[:], []byte(prev)); err != nil {
		return "", err
	}
	m := ignore.New(r.fsys)
	r.changedPaths, r.replacedFolder = 0, false
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
			r.replacedFolder = true
			if err := r.addFolder(p, m, prevSha, root); err != nil {
				return "", err
			}
			continue
		}
		c, err := r.changeOf(p, m, prevSha)
		if err != nil {
			return "", err
		}
		if c != nil {
			n := root.at(parts)
			if !n.replace {
				n.leaf = c
			}
		}
	}
	sha, _, err := r.apply(prevSha, true, root)
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(sha[:]), nil
}

// addFolder adds every file below the folder p that git would record.
func (r *Repo) addFolder(p string, m *ignore.Matcher, prev [20]byte, root *editNode) error {
	f, err := r.fsys.Open(filepath.FromSlash(p))
	if err != nil {
		return err
	}
	entries, err := f.ReadDir(-1)
	f.Close()
	if err != nil {
		return err
	}
	for _, e := range entries {
		rel := p + "/" + e.Name()
		if e.Name() == ".git" || isHeavy(e.Name()) {
			continue
		}
		if e.IsDir() {
			if m.Ignored(rel, true) {
				continue // git does not look inside an ignored folder for untracked files
			}
			if err := r.addFolder(rel, m, prev, root); err != nil {
				return err
			}
			continue
		}
		c, err := r.changeOf(rel, m, prev)
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
func (r *Repo) changeOf(p string, m *ignore.Matcher, prev [20]byte) (*change, error) {
	fi, c, err := statChange(r.fsys, p)
	if c != nil || err != nil {
		return c, err
	}
	// git keeps tracking a file that matches .gitignore once it is tracked; a new one it leaves out.
	if m.Ignored(p, false) {
		if tracked, err := r.inTree(prev, p); err != nil || !tracked {
			return nil, err
		}
	}
	return blobChange(r.fsys, r.objs, p, fi)
}

// inTree reports whether the tree holds p as a file.
func (r *Repo) inTree(tree [20]byte, p string) (bool, error) {
	parts := strings.Split(p, "/")
	for i, name := range parts {
		es, err := r.objs.readTree(tree)
		if err != nil {
			return false, err
		}
		j := slices.IndexFunc(es, func(e treeEntry) bool { return e.name == name })
		if j < 0 {
			return false, nil
		}
		if i == len(parts)-1 {
			return !es[j].isDir(), nil
		}
		if !es[j].isDir() {
			return false, nil
		}
		tree = es[j].sha
	}
	return false, nil
}

// apply writes the tree that is sha (or an empty tree when !exists) with n's changes, and says whether it is empty.
func (r *Repo) apply(sha [20]byte, exists bool, n *editNode) ([20]byte, bool, error) {
	var es []treeEntry
	if exists && !n.replace {
		got, err := r.objs.readTree(sha)
		if err != nil {
			return sha, false, err
		}
		es = slices.Clone(got)
	}
	for name, child := range n.children {
		i := slices.IndexFunc(es, func(e treeEntry) bool { return e.name == name })
		if child.leaf != nil && len(child.children) == 0 {
			l := child.leaf
			switch {
			case i >= 0 && !l.gone && es[i].mode == l.mode && es[i].sha == l.sha:
				continue // unchanged
			case i < 0 && l.gone:
				continue // gone, and never recorded
			}
			r.changedPaths++
			if i >= 0 {
				es = slices.Delete(es, i, i+1)
			}
			if !l.gone {
				es = append(es, treeEntry{mode: l.mode, name: name, sha: l.sha})
			}
			continue
		}
		// A directory with changes below it (a path that was a file and is now a directory holds none of the file).
		var sub [20]byte
		subExists := i >= 0 && es[i].isDir()
		if subExists {
			sub = es[i].sha
		}
		newSub, empty, err := r.apply(sub, subExists, child)
		if err != nil {
			return sha, false, err
		}
		if i >= 0 {
			es = slices.Delete(es, i, i+1)
		}
		if !empty {
			es = append(es, treeEntry{mode: "40000", name: name, sha: newSub})
		}
	}
	slices.SortFunc(es, treeOrder)
	if len(es) == 0 {
		return [20]byte{}, true, nil
	}
	out, err := r.objs.write("tree", encodeTree(es))
	if err != nil {
		return sha, false, err
	}
	if r.objs.trees != nil {
		r.objs.trees[out] = es
	}
	return out, false, nil
}

// commitObject writes a snapshot commit of tree with msg, as git commit-tree would for this repository.
func (r *Repo) commitObject(tree, msg string, when int64) (string, error) {
	return writeCommit(r.objs, tree, msg, when)
}

// writeCommit writes a snapshot commit through o.
func writeCommit(o *objects, tree, msg string, when int64) (string, error) {
	body := fmt.Sprintf("tree %s\nauthor Rooted <snapshots@rooted.invalid> %d +0000\ncommitter Rooted <snapshots@rooted.invalid> %d +0000\n\n%s", tree, when, when, msg)
	sha, err := o.write("commit", []byte(body))
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(sha[:]), nil
}

// updateRef points ref at id, as a loose ref written atomically.
func (r *Repo) updateRef(ref, id string) error {
	p := filepath.Join(r.dir, filepath.FromSlash(ref))
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	tmp := p + ".lock"
	if err := os.WriteFile(tmp, []byte(id+"\n"), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, p)
}

// presentTree returns the tree of the project as it is now, and how many paths changed when it was derived (-1
// when a scan through the shadow index made it). Derived when the project is watched and a base is known: the
// base tree (every change not in r.dirty) with the dirty paths replaced. r.mu is held.
func (r *Repo) presentTree(ctx context.Context) (string, int, error) {
	taken, rescan := r.takeDirty()
	if rescan {
		r.primed = false
	}
	if r.track && r.primed && r.baseTre != "" && (r.healthy == nil || r.healthy()) {
		dirty := make([]string, 0, len(taken))
		for p := range taken {
			dirty = append(dirty, p)
		}
		slices.Sort(dirty)
		tree := r.baseTre
		var err error
		r.changedPaths, r.replacedFolder = 0, false
		if len(dirty) > 0 {
			tree, err = r.derive(r.baseTre, dirty)
		}
		switch {
		case err == nil:
			r.baseTre = tree
			r.derived++
			if r.replacedFolder && r.changedPaths > 0 {
				return tree, -1, nil // a folder rebuilt whole: git counts what really changed in it
			}
			return tree, r.changedPaths, nil
		case !errors.Is(err, errDeriveFallback):
			r.putBackDirty(taken)
			return "", 0, err
		}
		r.primed = false // the index has not seen the derived trees: a full scan brings it up to date
	}
	if err := r.stage(ctx, taken); err != nil {
		r.putBackDirty(taken)
		return "", 0, err
	}
	out, err := r.git(ctx, nil, "write-tree")
	if err != nil {
		r.putBackDirty(taken)
		return "", 0, err
	}
	r.baseTre = strings.TrimSpace(string(out))
	return r.baseTre, -1, nil
}

// readChange stores what p is now as a blob: a regular file's bytes or a symlink's target; gone for what git does
// not record (missing, a pipe or device, a file over MaxFileSize). A folder is errDeriveFallback.
func readChange(fsys *os.Root, o *objects, p string) (*change, error) {
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

// blobChange stores what p (described by fi) holds as a blob.
func blobChange(fsys *os.Root, o *objects, p string, fi fs.FileInfo) (*change, error) {
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
	sha, err := o.write("blob", content)
	if err != nil {
		return nil, err
	}
	return &change{mode: mode, sha: sha}, nil
}
