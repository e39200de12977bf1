package search

import (
	"context"
	"os"
	"testing"

	"github.com/rooted-dev/rooted/backend/ignore/ignoretest"
)

func TestMain(m *testing.M) { ignoretest.Main(m) }

// TestWalkAgreesWithGit: on random trees with nested ignore files, the files a search reads, walking the disk,
// are exactly git's untracked, not ignored files (less links to folders).
func TestWalkAgreesWithGit(t *testing.T) {
	t.Parallel()
	ignoretest.Check(t, ignoretest.Seeds(100), func(t *testing.T, tree ignoretest.Tree, root *os.Root, truth ignoretest.Truth) []string {
		got := map[string]bool{}
		err := DiskSource{Root: root}.Walk(context.Background(), "", WalkOptions{IncludeHidden: true}, func(f File) bool {
			got[f.Rel] = true
			f.Release()
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
		return ignoretest.Diff("disk walk", got, tree.SearchedFiles(truth))
	})
}
