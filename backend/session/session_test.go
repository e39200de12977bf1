package session

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/rooted-dev/rooted/backend/testtree"
)

// makeProject makes root/{a/b/,a/f.txt} beside a sibling secret file outside the root.
func makeProject(t *testing.T) (root, outside string) {
	t.Helper()
	base := testtree.Dir(t, map[string]string{"proj/a/b/": "", "proj/a/f.txt": "inside", "secret.txt": "SECRET"})
	return filepath.Join(base, "proj"), filepath.Join(base, "secret.txt")
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestResolve(t *testing.T) {
	t.Parallel()
	root, outside := makeProject(t)
	s, err := Open(root)
	must(t, err)
	defer s.Close()
	home, _ := os.UserHomeDir()
	tests := []struct {
		cwd, in string
		want    string // root-relative; "" means an error is expected
		err     error
	}{
		{".", "a/f.txt", "a/f.txt", nil},
		{".", "", ".", nil},
		{".", ".", ".", nil},
		{".", "./a//b/", "a/b", nil},
		{"a/b", "..", "a", nil},
		{"a/b", "../..", ".", nil},
		{"a/b", "../../..", "", ErrOutsideRoot},
		{"a", "b/../../a/f.txt", "a/f.txt", nil},
		{".", "../secret.txt", "", ErrOutsideRoot},
		{".", "a/../../secret.txt", "", ErrOutsideRoot},
		{".", filepath.Join(root, "a", "f.txt"), "a/f.txt", nil},
		{".", root, ".", nil},
		{".", root + "/../proj/a", "a", nil},
		{".", outside, "", ErrOutsideRoot},
		{".", "/etc/passwd", "", ErrOutsideRoot},
		{".", root + "x/file", "", ErrOutsideRoot}, // a sibling whose name starts with the root's
		{".", "a\x00b", "", ErrInvalidPath},
		{".", "~user/x", "~user/x", nil},     // a file named "~user", not a home directory
		{".", `..\..\etc`, `..\..\etc`, nil}, // on Unix a backslash is part of a file name
	}
	if home != "" {
		tests = append(tests, struct {
			cwd, in string
			want    string
			err     error
		}{".", "~", "", ErrOutsideRoot})
	}
	for _, tt := range tests {
		s.cwd = filepath.FromSlash(tt.cwd)
		got, err := s.Resolve(tt.in)
		if tt.err != nil {
			if !errors.Is(err, tt.err) {
				t.Errorf("Resolve(%q) in %s: err = %v, want %v", tt.in, tt.cwd, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("Resolve(%q) in %s: %v", tt.in, tt.cwd, err)
			continue
		}
		if got.Slash() != tt.want {
			t.Errorf("Resolve(%q) in %s = %q, want %q", tt.in, tt.cwd, got.Slash(), tt.want)
		}
	}
}

func TestResolveThroughSymlinkedRoot(t *testing.T) {
	t.Parallel()
	root, _ := makeProject(t)
	link := filepath.Join(t.TempDir(), "link")
	must(t, os.Symlink(root, link))
	s, err := Open(link)
	must(t, err)
	defer s.Close()
	// The real path of a file must map inside as well as the path through the link.
	for _, p := range []string{filepath.Join(link, "a"), filepath.Join(root, "a")} {
		got, err := s.Resolve(p)
		if err != nil || got.Slash() != "a" {
			t.Errorf("Resolve(%q) = %q, %v; want a", p, got.Slash(), err)
		}
	}
}

func TestChdir(t *testing.T) {
	t.Parallel()
	root, _ := makeProject(t)
	s, err := Open(root)
	must(t, err)
	defer s.Close()

	info, err := s.Chdir("a/b")
	must(t, err)
	if info.CwdRel != "a/b" || info.Cwd != filepath.Join(root, "a", "b") {
		t.Fatalf("after cd a/b: %+v", info)
	}
	// Relative paths now start from a/b.
	if got, _ := s.Resolve("../f.txt"); got.Slash() != "a/f.txt" {
		t.Errorf("Resolve(../f.txt) from a/b = %q", got.Slash())
	}
	if _, err := s.Chdir("../../.."); !errors.Is(err, ErrOutsideRoot) {
		t.Errorf("cd above the root: err = %v", err)
	}
	if _, err := s.Chdir("../f.txt"); !IsNotDir(err) {
		t.Errorf("cd into a file: err = %v", err)
	}
	if _, err := s.Chdir("nope"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("cd into a missing dir: err = %v", err)
	}
	if info, _ := s.Info(); info.CwdRel != "a/b" {
		t.Errorf("failed cds changed the cwd to %q", info.CwdRel)
	}
	_, err = s.Chdir("..")
	must(t, err)
	info, err = s.Chdir("-")
	must(t, err)
	if info.CwdRel != "a/b" {
		t.Errorf("cd - went to %q, want a/b", info.CwdRel)
	}
}

func TestSetRootReplacesAndResets(t *testing.T) {
	t.Parallel()
	root1, _ := makeProject(t)
	root2, _ := makeProject(t)
	s, err := Open(root1)
	must(t, err)
	defer s.Close()
	_, err = s.Chdir("a")
	must(t, err)
	old, _ := s.Resolve(".")
	info, err := s.SetRoot(root2)
	must(t, err)
	if info.Root != root2 || info.CwdRel != "." {
		t.Fatalf("after SetRoot: %+v", info)
	}
	if _, err := old.Root.Stat("."); err == nil {
		t.Error("the replaced root is still open")
	}
	if _, err := s.SetRoot(filepath.Join(root2, "a", "f.txt")); !IsNotDir(err) {
		t.Errorf("SetRoot(file): err = %v", err)
	}
	if info, _ := s.Info(); info.Root != root2 {
		t.Errorf("a failed SetRoot changed the root to %q", info.Root)
	}
}

func TestNoProject(t *testing.T) {
	t.Parallel()
	s := New()
	if _, err := s.Resolve("x"); !errors.Is(err, ErrNoProject) {
		t.Errorf("Resolve without a project: %v", err)
	}
	if _, err := s.Info(); !errors.Is(err, ErrNoProject) {
		t.Errorf("Info without a project: %v", err)
	}
}

// Sessions are independent: one's cwd never moves another's, and one session is safe under concurrent use.
func TestConcurrentSessions(t *testing.T) {
	t.Parallel()
	root, _ := makeProject(t)
	s1, err := Open(root)
	must(t, err)
	s2, err := Open(root)
	must(t, err)
	defer s1.Close()
	defer s2.Close()
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Go(func() {
			dir := "a"
			if i%2 == 0 {
				dir = "a/b"
			}
			_, _ = s1.Chdir(dir)
			if _, err := s1.Resolve("f.txt"); err != nil && !errors.Is(err, ErrOutsideRoot) {
				t.Error(err)
			}
			_, _ = s1.Info()
		})
	}
	wg.Wait()
	if info, _ := s2.Info(); info.CwdRel != "." {
		t.Errorf("s2's cwd moved to %q", info.CwdRel)
	}
}
