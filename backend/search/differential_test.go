package search

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/ignore/ignoretest"
)

func TestMain(m *testing.M) {
	cleanup := ignoretest.Isolate()
	code := m.Run()
	cleanup()
	os.Exit(code)
}

// TestWalkAgreesWithGit: on random trees with nested ignore files, the files a search reads, walking the disk,
// are exactly git's untracked, not ignored files (less links to folders).
func TestWalkAgreesWithGit(t *testing.T) {
	failed := 0
	seeds := ignoretest.Seeds(100)
	for _, seed := range seeds {
		tree, dir, truth := ignoretest.Judged(t, seed)
		root, err := os.OpenRoot(dir)
		if err != nil {
			t.Fatal(err)
		}
		want := tree.SearchedFiles(truth)
		walked := func(src Source) map[string]bool {
			got := map[string]bool{}
			err := src.Walk(context.Background(), "", WalkOptions{IncludeHidden: true}, func(f File) bool {
				got[f.Rel] = true
				f.Release()
				return true
			})
			if err != nil {
				t.Fatal(err)
			}
			return got
		}
		diffs := ignoretest.Diff("disk walk", walked(DiskSource{Root: root}), want)
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
