package session

import (
	"crypto/sha256"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// ErrStale says a file changed on disk since this session last read or wrote it.
var ErrStale = errors.New("file changed on disk since it was last read")

// Version identifies what a session saw of a file: size and mtime for the cheap check, and a content hash so that
// a touched-but-unchanged file is not called stale.
type Version struct {
	Size    int64
	ModTime time.Time
	Sum     [sha256.Size]byte
	// changed is set when a watcher saw the file change after this record: size and mtime are then not trusted.
	changed bool
}

// VersionOf describes content read from or written to a file with info fi.
func VersionOf(fi fs.FileInfo, content []byte) Version {
	return Version{Size: fi.Size(), ModTime: fi.ModTime(), Sum: sha256.Sum256(content)}
}

// The records are kept per conversation (conv: the window's conversation id, an MCP client's session; "" for a
// one-shot call): each conversation's agent edits only what it has read itself, however many share the project.

// Saw records that conversation conv read or wrote t's file as v. Keys are root-relative, so records die with
// the root.
func (s *Session) Saw(conv string, t Target, v Version) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.proj == nil || s.proj.root != t.Root {
		return // the project changed since t was resolved
	}
	seen := s.proj.seen[conv]
	if seen == nil {
		seen = map[string]Version{}
		s.proj.seen[conv] = seen
	}
	seen[t.Rel] = v
}

// HasSeen reports whether conversation conv has read or written t's file (or, with also, the file it leads to).
func (s *Session) HasSeen(conv string, t Target, also ...string) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if _, ok := s.proj.seenLocked(conv, t); ok {
		return true
	}
	for _, rel := range also {
		if _, ok := s.proj.seenLocked(conv, Target{Root: t.Root, Rel: rel}); ok {
			return true
		}
	}
	return false
}

// Forget drops every conversation's record of t, as when the file is deleted.
func (s *Session) Forget(t Target) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.proj != nil && s.proj.root == t.Root {
		for _, seen := range s.proj.seen {
			delete(seen, t.Rel)
		}
	}
}

// Changed tells the session that a watcher saw rel (a slash path from root) change on disk; with below, everything
// under it too (a directory removed, renamed or to be re-scanned; "" is the whole tree). The next CheckFresh of a file so marked compares content even if its size and mtime look as recorded: an edit within the file system's
// timestamp granularity, or by a tool that restores mtimes, is still caught. Rooted's own writes are reported too;
// they compare equal to what Saw recorded, so they never make a file stale.
func (s *Session) Changed(root *os.Root, rel string, below bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.proj == nil || s.proj.root != root {
		return
	}
	key := filepath.FromSlash(rel)
	for _, seen := range s.proj.seen {
		if v, ok := seen[key]; ok {
			v.changed = true
			seen[key] = v
		}
		if !below {
			continue // a file's own event: one lookup, no scan, on the watcher's path for every write
		}
		prefix := key + string(filepath.Separator)
		for k, v := range seen {
			if rel == "" || strings.HasPrefix(k, prefix) { // keys, not containment: both sides are cleaned root-relative
				v.changed = true
				seen[k] = v
			}
		}
	}
}

// CheckFresh returns ErrStale when t's file, now described by fi and (lazily) its content, is not what
// conversation conv last saw. A file it never saw is fresh: there is nothing it could have overwritten unknowingly.
func (s *Session) CheckFresh(conv string, t Target, fi fs.FileInfo, content func() ([]byte, error)) error {
	s.mu.RLock()
	v, ok := s.proj.seenLocked(conv, t)
	s.mu.RUnlock()
	if !ok || (!v.changed && v.Size == fi.Size() && v.ModTime.Equal(fi.ModTime())) {
		return nil
	}
	if v.Size == fi.Size() {
		b, err := content()
		if err != nil {
			return err
		}
		if sha256.Sum256(b) == v.Sum {
			return nil // touched, same bytes
		}
	}
	return &fs.PathError{Op: "write", Path: t.Slash(), Err: ErrStale}
}

func (p *project) seenLocked(conv string, t Target) (Version, bool) {
	if p == nil || p.root != t.Root {
		return Version{}, false
	}
	v, ok := p.seen[conv][t.Rel]
	return v, ok
}

// LockPath serialises changes to one file within the session, so two tool calls patching the same file cannot
// both read the old content and lose one update. Other processes are not excluded: the stale-file check narrows
// that window to the moment between a check and its rename.
func (s *Session) LockPath(t Target) (unlock func()) {
	s.mu.Lock()
	if s.locks == nil {
		s.locks = map[string]*pathLock{}
	}
	key := t.Rel
	l := s.locks[key]
	if l == nil {
		l = &pathLock{}
		s.locks[key] = l
	}
	l.refs++
	s.mu.Unlock()
	l.mu.Lock()
	return func() {
		l.mu.Unlock()
		s.mu.Lock()
		if l.refs--; l.refs == 0 {
			delete(s.locks, key)
		}
		s.mu.Unlock()
	}
}

type pathLock struct {
	mu   sync.Mutex
	refs int
}
