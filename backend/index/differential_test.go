package index

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/ignore/ignoretest"
	"github.com/rooted-dev/rooted/backend/search"
)

// TestWalkAgreesWithGit: on random trees with nested ignore files, the files a search reads through the watched
// index, from its lists in memory, are exactly git's untracked, not ignored files (less links to folders).
func TestWalkAgreesWithGit(t *testing.T) {
	t.Parallel()
	failed := 0
	seeds := ignoretest.Seeds(100)
	for _, seed := range seeds {
		tree, dir, truth := ignoretest.Judged(t, seed)
		root, err := os.OpenRoot(dir)
		if err != nil {
			t.Fatal(err)
		}
		x, err := NewIndex(root, dir, Options{CacheDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		var diffs []string
		for round := range 2 { // the first walks the disk for the list, the second walks the list
			got := map[string]bool{}
			err := x.Walk(context.Background(), "", search.WalkOptions{IncludeHidden: true}, func(f search.File) bool {
				got[f.Rel] = true
				f.Release()
				return true
			})
			if err != nil {
				t.Fatal(err)
			}
			diffs = append(diffs, ignoretest.Diff([]string{"index walk", "index list"}[round], got, tree.SearchedFiles(truth))...)
		}
		x.Close()
		root.Close()
		if len(diffs) > 0 {
			if failed++; failed <= 3 {
				t.Errorf("%s  %s", tree, strings.Join(diffs, "\n  "))
			}
		}
	}
	if failed > 0 {
		t.Errorf("%d of %d trees disagree with git", failed, len(seeds))
	}
}
