package watch

import (
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/testtree"
)

type env struct {
	t   *testing.T
	dir string
	w   *Watcher
	got map[string]Op
}

func start(t *testing.T, files map[string]string, opt Options) *env {
	t.Helper()
	r, dir := testtree.Root(t, files)
	if opt.Quiet == 0 {
		opt.Quiet = 20 * time.Millisecond
	}
	w, err := New(r, dir, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return &env{t: t, dir: dir, w: w, got: map[string]Op{}}
}

func (e *env) path(rel string) string { return filepath.Join(e.dir, filepath.FromSlash(rel)) }

// expect waits until every want path has been reported with all of its ops. The timeout only bounds a hung test;
// latency is measured by BenchmarkLatency, not asserted.
func (e *env) expect(want map[string]Op) {
	e.t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		done := true
		for p, op := range want {
			if e.got[p]&op != op {
				done = false
			}
		}
		if done {
			return
		}
		select {
		case batch := <-e.w.Events():
			for _, ev := range batch {
				e.got[ev.Path] |= ev.Op
			}
		case <-deadline:
			e.t.Fatalf("waited for %v; got %v", want, e.got)
		}
	}
}

// settle collects events for a while, for checking what must not be reported.
func (e *env) settle() {
	timeout := time.After(300 * time.Millisecond)
	for {
		select {
		case batch := <-e.w.Events():
			for _, ev := range batch {
				e.got[ev.Path] |= ev.Op
			}
		case <-timeout:
			return
		}
	}
}

func (e *env) none(prefixes ...string) {
	e.t.Helper()
	for p := range e.got {
		for _, pre := range prefixes {
			if p == pre || strings.HasPrefix(p, pre+"/") {
				e.t.Errorf("event for ignored %s: %v", p, e.got[p])
			}
		}
	}
}

func TestFileOperations(t *testing.T) {
	e := start(t, map[string]string{"a.txt": "a", "src/": "", ".gitignore": "node_modules/\n*.log\n"}, Options{})
	os.WriteFile(e.path("new.txt"), []byte("x"), 0o644)
	os.WriteFile(e.path("a.txt"), []byte("changed"), 0o644)
	os.Rename(e.path("a.txt"), e.path("src/moved.txt"))
	e.expect(map[string]Op{"new.txt": Create, "a.txt": Rename, "src/moved.txt": Create})
	os.Remove(e.path("new.txt"))
	e.expect(map[string]Op{"new.txt": Remove})

	// mkdir -p of a deep tree and a file in it at once: the file is reported although its directory's watch
	// did not exist yet when it was written.
	os.MkdirAll(e.path("deep/a/b/c/d"), 0o755)
	os.WriteFile(e.path("deep/a/b/c/d/leaf.go"), []byte("package d"), 0o644)
	e.expect(map[string]Op{"deep": Create, "deep/a/b/c/d": Create, "deep/a/b/c/d/leaf.go": Create})
	// and it is watched from then on
	os.WriteFile(e.path("deep/a/b/c/d/leaf.go"), []byte("package d // edited"), 0o644)
	e.expect(map[string]Op{"deep/a/b/c/d/leaf.go": Write})

	// Ignored paths produce nothing.
	os.MkdirAll(e.path("node_modules/pkg/lib"), 0o755)
	os.WriteFile(e.path("node_modules/pkg/lib/index.js"), []byte("x"), 0o644)
	os.WriteFile(e.path("debug.log"), []byte("x"), 0o644)
	os.WriteFile(e.path("src/after.txt"), []byte("x"), 0o644) // a marker that arrives after them
	e.expect(map[string]Op{"src/after.txt": Create})
	e.settle()
	e.none("node_modules", "debug.log")
}

func TestEditorSaveByRenameAndDirRename(t *testing.T) {
	e := start(t, map[string]string{"main.go": "v1", "pkg/x.go": "x"}, Options{})
	// How many editors save: write a temporary file, rename it over the original.
	os.WriteFile(e.path(".main.go.swp"), []byte("v2"), 0o644)
	os.Rename(e.path(".main.go.swp"), e.path("main.go"))
	e.expect(map[string]Op{"main.go": Create})

	// A renamed directory is watched under its new name, and no longer under the old one.
	os.Rename(e.path("pkg"), e.path("lib"))
	e.expect(map[string]Op{"pkg": Rename, "lib": Create})
	os.WriteFile(e.path("lib/y.go"), []byte("y"), 0o644)
	e.expect(map[string]Op{"lib/y.go": Create})
	if st := e.w.Status(); st.Watched != 2 {
		t.Errorf("watching %d directories after the rename, want 2 (root, lib)", st.Watched)
	}
}

func TestGitCheckout(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is required")
	}
	e := start(t, map[string]string{"common.txt": "c", "only-main.txt": "m"}, Options{})
	git := func(args ...string) {
		t.Helper()
		testtree.Git(t, e.dir, args...)
	}
	git("init", "-q", "-b", "main")
	git("add", "-A")
	git("commit", "-qm", "main")
	git("checkout", "-q", "-b", "feature")
	os.Remove(e.path("only-main.txt"))
	os.MkdirAll(e.path("feature/sub"), 0o755)
	os.WriteFile(e.path("feature/sub/f.txt"), []byte("f"), 0o644)
	git("add", "-A")
	git("commit", "-qm", "feature")
	e.settle()
	clear(e.got)
	git("checkout", "-q", "main")
	e.expect(map[string]Op{"only-main.txt": Create, "feature/sub/f.txt": Remove})
	e.settle()
	e.none(".git")
}

func TestIgnoreRulesChange(t *testing.T) {
	e := start(t, map[string]string{"build/out.bin": "x", ".gitignore": "build/\n"}, Options{})
	if e.w.Status().Watched != 1 {
		t.Fatalf("an ignored directory is watched: %+v", e.w.Status())
	}
	os.WriteFile(e.path(".gitignore"), []byte("# nothing ignored\n"), 0o644)
	e.expect(map[string]Op{".gitignore": Write, "": Rescan})
	os.WriteFile(e.path("build/out.bin"), []byte("y"), 0o644)
	e.expect(map[string]Op{"build/out.bin": Write})
}

func TestWatchLimitDegrades(t *testing.T) {
	files := map[string]string{}
	for i := range 10 {
		files[fmt.Sprintf("d%d/f.txt", i)] = "x"
	}
	e := start(t, files, Options{MaxWatches: 4})
	st := e.w.Status()
	if !st.Degraded || st.Watched != 4 || !strings.Contains(st.Reason, "not seen live") {
		t.Fatalf("status at the cap: %+v", st)
	}
	// What is watched still reports.
	os.WriteFile(e.path("top.txt"), []byte("x"), 0o644)
	e.expect(map[string]Op{"top.txt": Create})
}

func TestCloseLeavesNothing(t *testing.T) {
	before := runtime.NumGoroutine()
	fds := func() int { n, _ := os.ReadDir("/proc/self/fd"); return len(n) }
	fdBefore := fds()
	for range 5 {
		e := start(t, map[string]string{"a/b/c.txt": "x"}, Options{})
		os.WriteFile(e.path("a/new.txt"), []byte("x"), 0o644)
		e.expect(map[string]Op{"a/new.txt": Create})
		if err := e.w.Close(); err != nil {
			t.Fatal(err)
		}
		if _, ok := <-e.w.Events(); ok {
			t.Fatal("Events still open after Close")
		}
		e.w.Close() // twice is fine
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines before, %d after closing:\n%s", before, n, buf[:runtime.Stack(buf, true)])
	}
	if runtime.GOOS == "linux" {
		// Roots are closed by t.Cleanup at the end; watches (inotify descriptors) must be gone already.
		if got := fds(); got > fdBefore+5 {
			t.Errorf("%d descriptors before, %d after closing five watchers", fdBefore, got)
		}
	}
}

// The folders watched are exactly those git does not ignore: nested .gitignore files, negations, anchored and
// dir-only patterns, and a link to a folder (never followed); and not those a .ignore file (ripgrep's, which
// Rooted honours too) leaves out. A folder created later with an ignore
// file of its own inside is watched the same way.
func TestWatchesWhatGitDoesNotIgnore(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	e := start(t, map[string]string{
		".gitignore":               "/build/\ntmp*/\n*.log\n",
		"build/x.go":               "",
		"src/build/y.go":           "",
		"src/.gitignore":           "gen/\n!gen/keep/\ncache/\n",
		"src/gen/a.go":             "",
		"src/cache/keep/b.go":      "",
		"src/deep/tmp1/c.go":       "",
		"src/deep/ok/.gitignore":   "private/\n",
		"docs/.ignore":             "drafts/\n",
		"docs/drafts/x.md":         "",
		"src/deep/ok/private/d.go": "",
		"src/deep/ok/public/e.go":  "",
		"docs/a.md":                "",
	}, Options{})
	os.Symlink(e.path("src"), e.path("link"))
	watched := func() []string {
		e.w.mu.Lock()
		defer e.w.mu.Unlock()
		var out []string
		for d := range e.w.dirs {
			out = append(out, d)
		}
		slices.Sort(out)
		return out
	}
	want := []string{"", "docs", "src", "src/build", "src/deep", "src/deep/ok", "src/deep/ok/public"}
	if got := watched(); !slices.Equal(got, want) {
		t.Errorf("watched %q, want %q", got, want)
	}
	// git agrees: the watched folders are exactly those that hold, at any depth, a file git does not ignore (git
	// init here; the watcher reads the rules itself).
	if out, err := exec.Command("git", "-C", e.dir, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	out, err := exec.Command("git", "-C", e.dir, "ls-files", "-o", "--exclude-standard").Output()
	if err != nil {
		t.Fatal(err)
	}
	fromGit := []string{""}
	for _, file := range strings.Fields(string(out)) {
		for d := path.Dir(file); d != "." && !slices.Contains(fromGit, d); d = path.Dir(d) {
			fromGit = append(fromGit, d)
		}
	}
	fromGit = slices.DeleteFunc(fromGit, func(d string) bool { return d == "docs/drafts" }) // git knows no .ignore
	slices.Sort(fromGit)
	if got := watched(); !slices.Equal(got, fromGit) {
		t.Errorf("watched %q, git's folders %q", got, fromGit)
	}
	// A new folder with its own ignore file: what it ignores is not watched, the rest is.
	os.MkdirAll(e.path("docs/new/skip"), 0o755)
	os.MkdirAll(e.path("docs/new/take"), 0o755)
	os.WriteFile(e.path("docs/new/.gitignore"), []byte("skip/\n"), 0o644)
	os.Rename(e.path("docs/new"), e.path("src/new")) // arrives whole, as a checkout or an unpacked archive does
	e.expect(map[string]Op{"src/new": Create})
	deadline := time.Now().Add(10 * time.Second)
	for !slices.Contains(watched(), "src/new/take") && time.Now().Before(deadline) {
		e.settle()
	}
	if got := watched(); !slices.Contains(got, "src/new/take") || slices.Contains(got, "src/new/skip") {
		t.Errorf("after a folder arrived: watched %q", got)
	}
}
