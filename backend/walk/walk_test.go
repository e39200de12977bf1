package walk

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/ignore/ignoretest"
	"github.com/rooted-dev/rooted/backend/testtree"
)

func TestMain(m *testing.M) { ignoretest.Main(m) }

// TestWalkAgreesWithGit: on random trees with nested ignore files, the files a walk visits are exactly git's
// untracked, not ignored files (less links to folders), however the walk is asked to run; and the folders it
// visits are ones git does not ignore.
func TestWalkAgreesWithGit(t *testing.T) {
	t.Parallel()
	ignoretest.Check(t, ignoretest.Seeds(100), func(t *testing.T, tree ignoretest.Tree, root *os.Root, truth ignoretest.Truth) []string {
		want := tree.SearchedFiles(truth)
		var diffs []string
		for _, opt := range []Options{
			{IncludeHidden: true},
			{IncludeHidden: true, Sorted: true, Ahead: 4},
			{IncludeHidden: true, Dirs: true},
		} {
			got := map[string]bool{}
			err := Walk(context.Background(), root, "", opt, func(e Entry) error {
				if e.IsDir() {
					if truth.Ignored[e.Rel] {
						diffs = append(diffs, "visited "+e.Rel+"/, which git ignores")
					}
					return nil
				}
				if fi, err := e.Dir.StatFollow(e.Name); err == nil && fi.IsDir() {
					return nil // a link to a folder: git lists it, a search has nothing to read in it
				}
				got[e.Rel] = true
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			diffs = append(diffs, ignoretest.Diff("walk", got, want)...)
		}
		return diffs
	})
}

// collect walks and returns the visited paths, folders marked with a trailing "/".
func collect(t *testing.T, r *os.Root, start string, opt Options, visit func(Entry) error) ([]string, error) {
	t.Helper()
	var got []string
	err := Walk(context.Background(), r, start, opt, func(e Entry) error {
		p := e.Rel
		if e.IsDir() {
			p += "/"
		}
		got = append(got, p)
		if visit != nil {
			return visit(e)
		}
		return nil
	})
	return got, err
}

// The options do what they say, on one tree with hidden, ignored and nested files, a .git folder below the top
// and a link to a folder.
func TestOptions(t *testing.T) {
	t.Parallel()
	r, dir := testtree.Root(t, map[string]string{
		".gitignore":      "build/\n*.log\n",
		".hidden/h.go":    "h",
		"a.go":            "a",
		"x.log":           "log",
		"build/out.go":    "out",
		"src/b.go":        "b",
		"src/deep/c.go":   "c",
		"src/.git/HEAD":   "ref",
		"src/vendor/v.go": "v",
		"empty/":          "",
	})
	if err := os.Symlink("src", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	skipVendor := func(e Entry) error {
		if e.Name == "vendor" {
			return fs.SkipDir
		}
		return nil
	}
	stopAtB := func(e Entry) error {
		if e.Name == "b.go" {
			return fs.SkipAll
		}
		return nil
	}
	cases := []struct {
		name  string
		start string
		opt   Options
		visit func(Entry) error
		want  string
	}{
		{"default", "", Options{Sorted: true}, nil, "a.go link src/b.go src/deep/c.go src/vendor/v.go"},
		{
			"hidden", "",
			Options{Sorted: true, IncludeHidden: true},
			nil,
			".gitignore .hidden/h.go a.go link src/b.go src/deep/c.go src/vendor/v.go",
		},
		{
			"ignored", "",
			Options{Sorted: true, IncludeIgnored: true},
			nil,
			"a.go build/out.go link src/b.go src/deep/c.go src/vendor/v.go x.log",
		},
		{"depth 1", "", Options{Sorted: true, MaxDepth: 1}, nil, "a.go link"},
		{"depth 1 with folders", "", Options{Sorted: true, MaxDepth: 1, Dirs: true}, nil, "a.go empty/ link src/"},
		{
			"folders, one skipped", "",
			Options{Sorted: true, Dirs: true},
			skipVendor,
			"a.go empty/ link src/ src/b.go src/deep/ src/deep/c.go src/vendor/",
		},
		{"stopped", "", Options{Sorted: true}, stopAtB, "a.go link src/b.go"},
		{
			"read ahead", "",
			Options{Sorted: true, Ahead: 2, Dirs: true},
			skipVendor,
			"a.go empty/ link src/ src/b.go src/deep/ src/deep/c.go src/vendor/",
		},
		{"an ignored start is walked", "build", Options{Sorted: true}, nil, "build/out.go"},
		{"a start below the top", "src/deep", Options{Sorted: true}, nil, "src/deep/c.go"},
	}
	for _, c := range cases {
		got, err := collect(t, r, c.start, c.opt, c.visit)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("%s:\n got  %s\n want %s", c.name, strings.Join(got, " "), c.want)
		}
	}
	// Unsorted, the same entries come back in the directory's order.
	got, _ := collect(t, r, "", Options{}, nil)
	slices.Sort(got)
	if strings.Join(got, " ") != "a.go link src/b.go src/deep/c.go src/vendor/v.go" {
		t.Errorf("unsorted: %v", got)
	}
}

// Errors: a start that is a file or missing is refused with a path error; a visitor's error and a cancelled
// context end the walk and are returned.
func TestErrors(t *testing.T) {
	t.Parallel()
	r, _ := testtree.Root(t, map[string]string{"a.go": "a", "d/b.go": "b", "d/c.go": "c"})
	if _, err := collect(t, r, "a.go", Options{}, nil); !errors.Is(err, ErrNotDir) {
		t.Errorf("a file as the start: %v, want ErrNotDir", err)
	}
	if _, err := collect(t, r, "missing", Options{}, nil); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing start: %v, want not exist", err)
	}
	boom := errors.New("boom")
	got, err := collect(t, r, "", Options{Sorted: true}, func(e Entry) error {
		if e.Name == "b.go" {
			return boom
		}
		return nil
	})
	if !errors.Is(err, boom) || strings.Join(got, " ") != "a.go d/b.go" {
		t.Errorf("a visitor's error: %v after %v", err, got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Walk(ctx, r, "", Options{}, func(Entry) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled walk: %v", err)
	}
}

// A kept entry's folder stays open after the walk: its file can still be opened and read by its name, and the
// file is the one the walk saw even when the folder was renamed meanwhile.
func TestKeptEntryOpensItsFile(t *testing.T) {
	t.Parallel()
	r, dir := testtree.Root(t, map[string]string{"d/a.txt": "hello"})
	var kept Entry
	if err := Walk(context.Background(), r, "", Options{}, func(e Entry) error {
		kept = e.Keep()
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	defer kept.Release()
	if err := os.Rename(filepath.Join(dir, "d"), filepath.Join(dir, "moved")); err != nil {
		t.Fatal(err)
	}
	f, err := kept.Dir.Open(kept.Name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil || string(b) != "hello" {
		t.Errorf("read %q, %v", b, err)
	}
	if n, err := kept.Dir.Size(kept.Name); err != nil || n != 5 {
		t.Errorf("size %d, %v", n, err)
	}
}

// A folder swapped for a link after the walk listed its parent is not entered: nothing outside the project is
// visited, whatever the link points to.
func TestSwappedFolderIsNotEntered(t *testing.T) {
	t.Parallel()
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("s"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, dir := testtree.Root(t, map[string]string{"a/x.txt": "x", "b/y.txt": "y"})
	got, err := collect(t, r, "", Options{Sorted: true}, func(e Entry) error {
		if e.Rel == "a/x.txt" { // b is listed but not opened yet: swap it
			if err := os.RemoveAll(filepath.Join(dir, "b")); err != nil {
				return err
			}
			return os.Symlink(outside, filepath.Join(dir, "b"))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range got {
		if strings.Contains(p, "secret") {
			t.Errorf("walked outside the project: %v", got)
		}
	}
}

// gatePacer holds every read-ahead at Pace until open is closed, counting those waiting; holding is what Holding
// answers.
type gatePacer struct {
	open    chan struct{}
	waiting atomic.Int32
	holding bool
}

func (p *gatePacer) Holding() bool { return p.holding }

func (p *gatePacer) Pace(ctx context.Context) {
	p.waiting.Add(1)
	select {
	case <-p.open:
	case <-ctx.Done():
	}
}

// A folder listed ahead is listed only once the Pacer lets it: while it holds the read-ahead back, nothing below
// the top is visited; once it lets go, the walk visits what it visits without one.
func TestPacerHoldsReadAhead(t *testing.T) {
	t.Parallel()
	r, _ := testtree.Root(t, map[string]string{"a.go": "a", "s1/b.go": "b", "s2/c.go": "c", "s2/deep/d.go": "d"})
	want, err := collect(t, r, "", Options{Sorted: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := &gatePacer{open: make(chan struct{})}
	var mu sync.Mutex
	var got []string
	done := make(chan error, 1)
	go func() {
		done <- Walk(context.Background(), r, "", Options{Sorted: true, Ahead: 4, Pacer: p}, func(e Entry) error {
			mu.Lock()
			got = append(got, e.Rel)
			mu.Unlock()
			return nil
		})
	}()
	for p.waiting.Load() < 2 { // s1 and s2, listed ahead
		select {
		case err := <-done:
			t.Fatalf("the walk ended (%v) with its read-ahead held back: %v", err, got)
		case <-time.After(time.Millisecond):
		}
	}
	mu.Lock()
	for _, rel := range got {
		if rel != "a.go" {
			t.Errorf("visited %s while the folders' listing was held back", rel)
		}
	}
	mu.Unlock()
	close(p.open)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("paced walk visited %v, want %v", got, want)
	}
}

// While the Pacer holds, no folder is listed ahead (a listing cannot pause halfway): the walk lists each itself
// when it gets there, and visits the same entries.
func TestHoldingPacerListsNothingAhead(t *testing.T) {
	t.Parallel()
	r, _ := testtree.Root(t, map[string]string{"a.go": "a", "s1/b.go": "b", "s2/c.go": "c", "s2/deep/d.go": "d"})
	want, err := collect(t, r, "", Options{Sorted: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := &gatePacer{open: make(chan struct{}), holding: true} // open never closes: a Pace would hang the walk
	got, err := collect(t, r, "", Options{Sorted: true, Ahead: 4, Pacer: p}, nil)
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("held walk visited %v (%v), want %v", got, err, want)
	}
	if n := p.waiting.Load(); n != 0 {
		t.Fatalf("%d folders listed ahead while the pacer held", n)
	}
}

// OpenBeneath opens a folder by its slash path below an open folder, never above it and, on Linux, never through a
// link.
func TestOpenBeneath(t *testing.T) {
	root, dir := testtree.Root(t, map[string]string{"sub/f.txt": "f", "sub/deeper/g.txt": "g"})
	if err := os.Symlink("sub", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	top, err := OpenDir(root, "")
	if err != nil {
		t.Fatal(err)
	}
	defer top.Release()
	deeper, err := top.OpenBeneath("sub/deeper")
	if err != nil {
		t.Fatal(err)
	}
	defer deeper.Release()
	if deeper.rel != "sub/deeper" {
		t.Errorf("rel %q, want sub/deeper", deeper.rel)
	}
	f, err := deeper.Open("g.txt")
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	bad := []string{"", ".", "..", "../" + filepath.Base(dir), "sub/..", "sub/../..", "sub//deeper", "./sub", "sub/", "/etc", "/" + dir, "missing", "sub/f.txt"}
	if runtime.GOOS == "linux" {
		bad = append(bad, "link", "link/deeper") // elsewhere os.Root follows a link that stays inside
	}
	for _, rel := range bad {
		if d, err := top.OpenBeneath(rel); err == nil {
			d.Release()
			t.Errorf("OpenBeneath(%q) opened", rel)
		}
	}
	if d, err := deeper.OpenBeneath(".."); err == nil {
		d.Release()
		t.Error(`OpenBeneath("..") from sub/deeper opened`)
	}
}

// ValidRel takes the slash paths a walk gives, whatever bytes their names hold, and nothing that steps elsewhere.
func TestValidRel(t *testing.T) {
	for rel, want := range map[string]bool{
		"a": true, "a/b/c.go": true, "a/\xff\xfe/x": true, ".hidden/x": true, "a/..b": true,
		"": false, ".": false, "..": false, "/a": false, "a/": false, "a//b": false, "a/./b": false, "a/../b": false, "../a": false,
	} {
		if got := ValidRel(rel); got != want {
			t.Errorf("ValidRel(%q) = %v, want %v", rel, got, want)
		}
	}
}
