// Package session holds one conversation's view of a project: the project root, opened once as an *os.Root, and a
// virtual working directory inside it.
//
// Guarantees: every path handed out by Resolve is relative to the root and is meant to be used only through the
// *os.Root returned with it, so the kernel-backed checks of os.Root (no "..", absolute or symlink escape, at the time
// of each access) are the containment boundary. The lexical checks here only turn a user's path (relative to the
// virtual cwd, absolute, "~") into a root-relative name and reject the obvious escapes early with a clear error; they
// are not what keeps a caller inside the root.
//
// Not guaranteed: os.Root does not stop traversal of bind mounts, /proc files or device files inside the root. The
// working directory is virtual: the process's own cwd is never read or changed, so sessions in one process are
// independent.
package session

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Sentinel errors, returned wrapped in *fs.PathError so callers see the operation and the path the user gave.
var (
	ErrNoProject   = errors.New("no project is open")
	ErrOutsideRoot = errors.New("path is outside the project root")
	ErrInvalidPath = errors.New("invalid path")
	ErrNoPrevious  = errors.New("no previous directory")
)

// Session is safe for concurrent use. The zero value is not usable; call New.
type Session struct {
	mu   sync.RWMutex
	proj *project
	cwd  string // root-relative, OS separators, "." for the root
	prev string

	locks map[string]*pathLock // per-file write locks, see LockPath
}

type project struct {
	root *os.Root
	path string // absolute path as opened
	real string // the same with symlinks resolved, so "/tmp/x" and "/private/tmp/x" both map inside
	// seen is what each conversation read or wrote, by conversation, then root-relative path (seen.go).
	seen map[string]map[string]Version
}

// Info describes the open project; all paths are absolute except the Rel fields.
type Info struct {
	Root   string `json:"root"`
	Name   string `json:"name"`
	Cwd    string `json:"cwd"`
	CwdRel string `json:"cwd_relative"`
}

// Target is a resolved path: Rel is valid only through Root, which belongs to the project current at resolution time.
type Target struct {
	Root *os.Root
	Rel  string // cleaned, root-relative, OS separators; "." is the root itself
	Abs  string // for messages and results only; never used to access the file
}

// Slash returns Rel with forward slashes, as tools report paths.
func (t Target) Slash() string { return filepath.ToSlash(t.Rel) }

// New returns a session with no project open; tools answer ErrNoProject until Open is called.
func New() *Session { return &Session{cwd: "."} }

// Open returns a session rooted at dir.
func Open(dir string) (*Session, error) {
	s := New()
	if _, err := s.SetRoot(dir); err != nil {
		return nil, err
	}
	return s, nil
}

// SetRoot opens dir as the project root, replacing (and closing) any previous one and resetting the cwd to the root.
func (s *Session) SetRoot(dir string) (Info, error) {
	if dir == "" || strings.ContainsRune(dir, 0) {
		return Info{}, &fs.PathError{Op: "open project", Path: dir, Err: ErrInvalidPath}
	}
	abs, err := filepath.Abs(expandHome(dir))
	if err != nil {
		return Info{}, &fs.PathError{Op: "open project", Path: dir, Err: err}
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return Info{}, err
	}
	if !fi.IsDir() {
		return Info{}, &fs.PathError{Op: "open project", Path: abs, Err: errNotDir}
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return Info{}, err
	}
	home, config, cache := userFolders()
	if why := tooBroad(real, home, config, cache); why != "" {
		return Info{}, &fs.PathError{Op: "open project", Path: abs, Err: tooBroadError{why}}
	}
	root, err := os.OpenRoot(abs)
	if err != nil {
		return Info{}, err
	}
	s.mu.Lock()
	old := s.proj
	s.proj = &project{root: root, path: abs, real: real, seen: map[string]map[string]Version{}}
	s.cwd, s.prev = ".", ""
	info := s.infoLocked()
	s.mu.Unlock()
	if old != nil {
		_ = old.root.Close()
	}
	return info, nil
}

var errNotDir = errors.New("not a directory")

// Close releases the root. The session answers ErrNoProject afterwards.
func (s *Session) Close() error {
	s.mu.Lock()
	old := s.proj
	s.proj = nil
	s.cwd, s.prev = ".", ""
	s.mu.Unlock()
	if old == nil {
		return nil
	}
	return old.root.Close()
}

// Info reports the project root and the cwd.
func (s *Session) Info() (Info, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.proj == nil {
		return Info{}, ErrNoProject
	}
	return s.infoLocked(), nil
}

func (s *Session) infoLocked() Info {
	return Info{
		Root:   s.proj.path,
		Name:   filepath.Base(s.proj.path),
		Cwd:    filepath.Join(s.proj.path, s.cwd),
		CwdRel: filepath.ToSlash(s.cwd),
	}
}

// Resolve turns a user's path into a root-relative Target. Relative paths start at the virtual cwd; absolute paths
// (and "~") are accepted when they name something under the root. An empty path means the cwd.
func (s *Session) Resolve(p string) (Target, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.proj == nil {
		return Target{}, ErrNoProject
	}
	rel, err := s.proj.relative(s.cwd, p)
	if err != nil {
		return Target{}, &fs.PathError{Op: "resolve", Path: p, Err: err}
	}
	return Target{Root: s.proj.root, Rel: rel, Abs: filepath.Join(s.proj.path, rel)}, nil
}

// Chdir moves the virtual cwd. "-" returns to the previous directory. The target must be an existing directory
// reached through the root; on failure the cwd is unchanged.
func (s *Session) Chdir(p string) (Info, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.proj == nil {
		return Info{}, ErrNoProject
	}
	if p == "-" {
		if s.prev == "" {
			return Info{}, &fs.PathError{Op: "cd", Path: p, Err: ErrNoPrevious}
		}
		p = filepath.Join(s.proj.path, s.prev)
	}
	rel, err := s.proj.relative(s.cwd, p)
	if err != nil {
		return Info{}, &fs.PathError{Op: "cd", Path: p, Err: err}
	}
	fi, err := s.proj.root.Stat(rel)
	if err != nil {
		return Info{}, err
	}
	if !fi.IsDir() {
		return Info{}, &fs.PathError{Op: "cd", Path: filepath.ToSlash(rel), Err: errNotDir}
	}
	s.prev, s.cwd = s.cwd, rel
	return s.infoLocked(), nil
}

// IsNotDir reports whether err says a path is not a directory (from Chdir or SetRoot).
func IsNotDir(err error) bool { return errors.Is(err, errNotDir) }

// relative maps p to a cleaned root-relative path, rejecting lexical escapes early.
func (p *project) relative(cwd, name string) (string, error) {
	if strings.ContainsRune(name, 0) {
		return "", fmt.Errorf("%w: contains a NUL byte", ErrInvalidPath)
	}
	if name == "" {
		return cwd, nil
	}
	name = expandHome(name)
	if !filepath.IsAbs(name) {
		rel := filepath.Join(cwd, name) // Join cleans, so "a/../.." becomes ".."
		if escapes(rel) {
			return "", ErrOutsideRoot
		}
		return rel, nil
	}
	abs := filepath.Clean(name)
	for _, base := range []string{p.path, p.real} {
		if rel, ok := under(base, abs); ok {
			return rel, nil
		}
	}
	return "", ErrOutsideRoot
}

// under reports abs relative to base when abs is lexically base or below it. It maps names only; os.Root decides
// containment when the name is used.
func under(base, abs string) (string, bool) {
	rel, err := filepath.Rel(base, abs)
	if err != nil || escapes(rel) {
		return "", false
	}
	return rel, true
}

func escapes(rel string) bool {
	return rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// expandHome expands a leading "~" to the user's home directory; "~user" forms are left alone (they name a file).
func expandHome(p string) string {
	if p != "~" && !strings.HasPrefix(p, "~/") && !strings.HasPrefix(p, "~"+string(filepath.Separator)) {
		return p
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return p
	}
	return filepath.Join(home, p[1:])
}
