package index

import (
	"context"
	"os"
	"testing"

	"github.com/rooted-dev/rooted/backend/ignore/ignoretest"
	"github.com/rooted-dev/rooted/backend/search"
)

// TestWalkAgreesWithGit: on random trees with nested ignore files, the files a search reads through the watched
// index, from its lists in memory, are exactly git's untracked, not ignored files (less links to folders).
func TestWalkAgreesWithGit(t *testing.T) {
	t.Parallel()
	ignoretest.Check(t, ignoretest.Seeds(100), func(t *testing.T, tree ignoretest.Tree, root *os.Root, truth ignoretest.Truth) []string {
		x, err := NewIndex(root, root.Name(), Options{CacheDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		defer x.Close()
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
		return diffs
	})
}
