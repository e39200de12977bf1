package session

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// An edit that keeps a file's size and mtime (within the file system's timestamp granularity, or by a tool that
// restores mtimes) is invisible to the cheap check; a watcher's report makes the session compare content.
func TestChangedForcesContentCheck(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "pkg"), 0o755)
	file := filepath.Join(dir, "pkg", "a.go")
	os.WriteFile(file, []byte("version one"), 0o644)
	s := New()
	defer s.Close()
	if _, err := s.SetRoot(dir); err != nil {
		t.Fatal(err)
	}
	target, err := s.Resolve("pkg/a.go")
	if err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(file)
	s.Saw("", target, VersionOf(fi, []byte("version one")))

	mtime := fi.ModTime()
	os.WriteFile(file, []byte("version two"), 0o644)
	os.Chtimes(file, time.Time{}, mtime)
	fi2, _ := os.Stat(file)
	content := func() ([]byte, error) { return os.ReadFile(file) }
	if err := s.CheckFresh("", target, fi2, content); err != nil {
		t.Fatalf("without a watcher the same size and mtime pass the cheap check; got %v", err)
	}

	for _, reported := range []string{"pkg/a.go", "pkg", ""} {
		s.Saw("", target, VersionOf(fi, []byte("version one")))
		s.Changed(target.Root, reported, reported != "pkg/a.go")
		if err := s.CheckFresh("", target, fi2, content); !errors.Is(err, ErrStale) {
			t.Errorf("after the watcher reported %q: CheckFresh = %v, want ErrStale", reported, err)
		}
	}

	// A change reported for a file the session wrote itself compares equal and stays fresh.
	s.Saw("", target, VersionOf(fi2, []byte("version two")))
	s.Changed(target.Root, "pkg/a.go", false)
	if err := s.CheckFresh("", target, fi2, content); err != nil {
		t.Errorf("own write reported by the watcher: %v", err)
	}
	// Another path's report leaves the record alone (no content read needed).
	s.Saw("", target, VersionOf(fi2, []byte("version two")))
	s.Changed(target.Root, "pkg/a.go.orig", false)
	if err := s.CheckFresh("", target, fi2, func() ([]byte, error) { return nil, errors.New("content read") }); err != nil {
		t.Errorf("unrelated report: %v", err)
	}
}
