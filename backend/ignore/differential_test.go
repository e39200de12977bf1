package ignore

import (
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/ignore/ignoretest"
)

// TestDifferentialAgainstGit judges the matcher by git on random trees: every path's Ignored answer against git
// check-ignore, and the files a walk through Dir reaches against git ls-files -o --exclude-standard.
func TestDifferentialAgainstGit(t *testing.T) {
	t.Parallel()
	ignoretest.Check(t, ignoretest.Seeds(300), func(t *testing.T, tree ignoretest.Tree, root *os.Root, truth ignoretest.Truth) []string {
		m := newWith(root, nil)
		var diffs []string
		for _, p := range tree.Paths() {
			isDir := strings.HasSuffix(p, "/")
			p = strings.TrimSuffix(p, "/")
			if got, want := m.Ignored(p, isDir), truth.Ignored[p]; got != want {
				diffs = append(diffs, "Ignored("+p+") = "+strconv.FormatBool(got)+", git check-ignore says "+strconv.FormatBool(want))
			}
		}
		return append(diffs, ignoretest.Diff("walk", walkFiles(root, m), truth.Untracked)...)
	})
}

// walkFiles walks as the search and snapshot walks do: not into .git or ignored directories, Dir per directory.
func walkFiles(root *os.Root, m *Matcher) map[string]bool {
	got := map[string]bool{}
	var walk func(dir string)
	walk = func(dir string) {
		entries, err := fsReadDir(root, dir)
		if err != nil {
			return
		}
		dm := m.Dir(dir)
		for _, e := range entries {
			rel := path.Join(dir, e.Name())
			if dm.Ignored(e.Name(), e.IsDir()) {
				continue
			}
			if e.IsDir() {
				walk(rel)
			} else {
				got[rel] = true
			}
		}
	}
	walk("")
	return got
}

func fsReadDir(root *os.Root, dir string) ([]os.DirEntry, error) {
	f, err := root.Open(filepath.FromSlash(cmpOr(dir, ".")))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.ReadDir(-1)
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
