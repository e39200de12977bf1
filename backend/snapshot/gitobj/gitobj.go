// Package gitobj reads and writes a git repository's objects directly: loose objects written as git writes them
// (zlib of "type size\0content", named by SHA-1, through a temporary file renamed into place, so a writer killed
// midway leaves at most a temporary file and two writers of the same object agree), and objects of any kind read
// through one long-lived hardened git cat-file --batch, which sees packed objects too. It knows trees and commits
// as far as snapshots need them; it takes no lock and never touches refs or an index.
package gitobj

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
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rooted-dev/rooted/backend/gitexec"
)

// Entry is one entry of a tree.
type Entry struct {
	Mode string // "100644", "100755", "120000", "40000", "160000"
	Name string
	SHA  [20]byte
}

// IsDir reports whether the entry is a tree.
func (e Entry) IsDir() bool { return e.Mode == "40000" }

// Store reads and writes the objects of the repository at Dir.
type Store struct {
	Dir   string
	cat   *exec.Cmd
	in    io.WriteCloser
	out   *bufio.Reader
	trees map[[20]byte][]Entry
}

// New returns the object store of the repository dir.
func New(dir string) *Store { return &Store{Dir: dir} }

// Close ends the reader process.
func (s *Store) Close() {
	if s.cat != nil {
		s.in.Close()
		s.cat.Wait()
		s.cat = nil
	}
}

// Read returns an object's content, which must be of kind.
func (s *Store) Read(sha [20]byte, kind string) ([]byte, error) {
	if s.cat == nil {
		cmd, err := gitexec.Cmd{Dir: s.Dir, Env: []string{"GIT_DIR=" + s.Dir}, ObjectsOnly: true}.Command(context.Background(), "cat-file", "--batch")
		if err != nil {
			return nil, err
		}
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
		s.cat, s.in, s.out = cmd, in, bufio.NewReaderSize(out, 64<<10)
	}
	if _, err := fmt.Fprintf(s.in, "%x\n", sha); err != nil {
		s.Close()
		return nil, err
	}
	head, err := s.out.ReadString('\n')
	if err != nil {
		s.Close()
		return nil, err
	}
	f := strings.Fields(head)
	if len(f) != 3 {
		return nil, fmt.Errorf("gitobj: object %x: %q", sha, strings.TrimSpace(head)) // missing: no content follows
	}
	size, err := strconv.Atoi(f[2])
	if err != nil {
		s.Close()
		return nil, err
	}
	body := make([]byte, size+1) // and the newline after it
	if _, err := io.ReadFull(s.out, body); err != nil {
		s.Close()
		return nil, err
	}
	if f[1] != kind {
		return nil, fmt.Errorf("gitobj: object %x is a %s, not a %s", sha, f[1], kind)
	}
	return body[:size], nil
}

// ReadTree returns a tree's entries, from the cache or the repository.
func (s *Store) ReadTree(sha [20]byte) ([]Entry, error) {
	if es, ok := s.trees[sha]; ok {
		return es, nil
	}
	body, err := s.Read(sha, "tree")
	if err != nil {
		return nil, err
	}
	es, err := ParseTree(body)
	if err != nil {
		return nil, err
	}
	s.remember(sha, es)
	return es, nil
}

func (s *Store) remember(sha [20]byte, es []Entry) {
	if s.trees == nil || len(s.trees) > 50000 {
		s.trees = map[[20]byte][]Entry{}
	}
	s.trees[sha] = es
}

// ParseTree decodes a tree object's content.
func ParseTree(b []byte) ([]Entry, error) {
	var es []Entry
	for len(b) > 0 {
		sp := bytes.IndexByte(b, ' ')
		nul := bytes.IndexByte(b, 0)
		if sp < 0 || nul < sp || len(b) < nul+21 {
			return nil, errors.New("gitobj: malformed tree object")
		}
		e := Entry{Mode: string(b[:sp]), Name: string(b[sp+1 : nul])}
		copy(e.SHA[:], b[nul+1:nul+21])
		es = append(es, e)
		b = b[nul+21:]
	}
	return es, nil
}

// TreeOrder is git's order of tree entries: names compare as bytes, a directory's as if it ended in "/".
func TreeOrder(a, b Entry) int {
	an, bn := a.Name, b.Name
	if a.IsDir() {
		an += "/"
	}
	if b.IsDir() {
		bn += "/"
	}
	return strings.Compare(an, bn)
}

// EncodeTree encodes entries, already in TreeOrder, as a tree object's content.
func EncodeTree(es []Entry) []byte {
	var b bytes.Buffer
	for _, e := range es {
		b.WriteString(e.Mode)
		b.WriteByte(' ')
		b.WriteString(e.Name)
		b.WriteByte(0)
		b.Write(e.SHA[:])
	}
	return b.Bytes()
}

// WriteTree stores a tree of entries (in TreeOrder) and keeps it in the cache.
func (s *Store) WriteTree(es []Entry) ([20]byte, error) {
	sha, err := s.Write("tree", EncodeTree(es))
	if err == nil && s.trees != nil {
		s.trees[sha] = es
	}
	return sha, err
}

// zlibWriters keeps compressors between objects: a new zlib writer allocates some 800 KB of tables, which made each
// edit's snapshot allocate megabytes and drove the garbage collector for every workspace in the process.
var zlibWriters = sync.Pool{New: func() any {
	zw, _ := zlib.NewWriterLevel(io.Discard, zlib.BestSpeed)
	return zw
}}

// Write stores an object unless it is already stored loose, and returns its name. An object already there has its
// time renewed, as git does, so that a prune with a grace period does not take it before a ref names it.
func (s *Store) Write(kind string, content []byte) ([20]byte, error) {
	header := kind + " " + strconv.Itoa(len(content)) + "\x00"
	h := sha1.New()
	h.Write([]byte(header))
	h.Write(content)
	var sha [20]byte
	copy(sha[:], h.Sum(nil))
	name := hex.EncodeToString(sha[:])
	p := filepath.Join(s.Dir, "objects", name[:2], name[2:])
	if _, err := os.Stat(p); err == nil {
		now := time.Now()
		os.Chtimes(p, now, now)
		return sha, nil
	}
	tmp, err := createIn(filepath.Dir(p))
	if err != nil {
		return sha, err
	}
	zw := zlibWriters.Get().(*zlib.Writer)
	zw.Reset(tmp)
	_, err = zw.Write([]byte(header))
	if err == nil {
		_, err = zw.Write(content)
	}
	if err == nil {
		err = zw.Close()
	}
	zw.Reset(io.Discard) // holds no file while pooled
	zlibWriters.Put(zw)
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

// createIn creates a temporary file in the fan-out folder dir, making the folder where it is missing. git removes
// empty fan-out folders (prune-packed, in a repack that may run beside a snapshot), so a folder just made can be
// gone by the time the file is created: then it is made again. Once the file is in it, the folder is not empty and
// stays.
func createIn(dir string) (*os.File, error) {
	for attempt := 0; ; attempt++ {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, err
		}
		f, err := os.CreateTemp(dir, "tmp_obj_")
		if err == nil || !errors.Is(err, fs.ErrNotExist) || attempt == 8 {
			return f, err
		}
	}
}

// Ident is the author and committer of the commits WriteCommit writes.
const Ident = "Rooted <snapshots@rooted.invalid>"

// WriteCommit stores a commit of tree with msg at when, with parents, as git commit-tree would.
func (s *Store) WriteCommit(tree, msg string, when int64, parents ...string) (string, error) {
	var b strings.Builder
	b.WriteString("tree " + tree + "\n")
	for _, p := range parents {
		b.WriteString("parent " + p + "\n")
	}
	fmt.Fprintf(&b, "author %s %d +0000\ncommitter %s %d +0000\n\n%s", Ident, when, Ident, when, msg)
	sha, err := s.Write("commit", []byte(b.String()))
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(sha[:]), nil
}

// Hex parses a full object name.
func Hex(name string) ([20]byte, error) {
	var sha [20]byte
	if len(name) != 40 {
		return sha, fmt.Errorf("gitobj: %q is not an object name", name)
	}
	_, err := hex.Decode(sha[:], []byte(name))
	return sha, err
}
