package index

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/ignore/ignoretest"
	"github.com/rooted-dev/rooted/backend/search"
	"github.com/rooted-dev/rooted/backend/testtree"
)

// TestMain isolates the tests from the user's git and ignore settings, and from the user's cache: an Indexes keeps
// a project's trigram index under the user's cache folder, and a build prunes what it finds there.
func TestMain(m *testing.M) {
	cache, err := os.MkdirTemp("", "index-test-cache-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CACHE_HOME", cache)
	code := func() int {
		defer os.RemoveAll(cache)
		cleanup := ignoretest.Isolate()
		defer cleanup()
		return m.Run()
	}()
	os.Exit(code)
}

func init() {
	buildDelay = 0                      // the tests wait for builds; nothing here competes with them
	racyWindow = 300 * time.Millisecond // the tests' files are all new: those that must be trusted are made earlier
}

// fixture is the tree of files, opened as a root.
func fixture(t *testing.T, files map[string]string) (*os.Root, string) {
	return testtree.Root(t, files)
}

func mustGlob(t *testing.T, patterns ...string) *search.Glob {
	t.Helper()
	g, err := search.CompileGlobs(patterns)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// repoFiles is the layout of search's own tests: nested ignore files, negations, hidden files.
var repoFiles = testtree.IgnoreProject()

// keptProject is a project of 300 small files under d0..d4 (d1/f001.txt holds "needle"), a binary file, an ignored
// one and extra, whose trigram index one opening built, merged and kept in cache before closing: what a test of a
// reopened index changes while the project is closed. Its files are older than the racy window, so the manifest
// trusts their identities.
func keptProject(t *testing.T, extra map[string]string) (r *os.Root, dir, cache string, files map[string]string) {
	t.Helper()
	files = map[string]string{".gitignore": "*.later\n", "bin.dat": "needle\x00binary", "skip.later": "needle, ignored\n"}
	for i := range 300 {
		files[fmt.Sprintf("d%d/f%03d.txt", i%5, i)] = fmt.Sprintf("line %d of file %d\n", i, i)
	}
	files["d1/f001.txt"] = "a needle\n"
	maps.Copy(files, extra)
	r, dir = fixture(t, files)
	cache = t.TempDir()
	time.Sleep(racyWindow + 100*time.Millisecond)
	x, err := NewIndex(r, dir, Options{CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	waitNarrowed(t, x)
	waitMerged(t, x)
	x.Close()
	return r, dir, cache, files
}

// rewriteAtSameTimes replaces the text of rel, of the same length, and puts its modification time back: only its
// change time tells.
func rewriteAtSameTimes(t *testing.T, dir, rel, text string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	fi, err := os.Stat(p)
	if err != nil || int64(len(text)) != fi.Size() {
		t.Fatalf("%s: %v, or %q not its size", rel, err, text)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
}

// matches is the full count of opt in the whole project: the lines that match.
func matches(t *testing.T, x *Index, opt search.Options) int {
	t.Helper()
	opt.Output = search.OutputCount
	res, err := search.Search(context.Background(), x, "", opt)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range res.Files {
		n += f.Count
	}
	return n
}

// cachedBytes is the text (and filters) the index holds in memory.
func cachedBytes(x *Index) int64 {
	c, _, _ := x.Memory()
	return c
}
