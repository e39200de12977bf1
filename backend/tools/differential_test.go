package tools

import (
	"cmp"
	"path"
	"strconv"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/ignore/ignoretest"
	"github.com/rooted-dev/rooted/backend/session"
)

// TestIgnoredAgreesWithGit: on random trees with nested ignore files, what the model sees through the tools agrees
// with git: find_files lists git's untracked, not ignored files, and list_directory's ignored flag on every file,
// folder and link is git check-ignore's answer.
func TestIgnoredAgreesWithGit(t *testing.T) {
	failed := 0
	seeds := ignoretest.Seeds(60)
	for _, seed := range seeds {
		tree, dir, truth := ignoretest.Judged(t, seed)
		s, err := session.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		reg := Registry(Deps{Session: s})
		found, e := call[findFilesOut](t, reg, "find_files", `{"glob": "**", "include_hidden": true, "limit": 10000}`)
		if e != nil {
			t.Fatal(e)
		}
		got := map[string]bool{}
		for _, f := range found.Files {
			got[f.Path] = true
		}
		diffs := ignoretest.Diff("find_files", got, tree.SearchedFiles(truth))
		for _, d := range append([]string{""}, tree.Dirs...) {
			l, e := call[listDirectoryOut](t, reg, "list_directory", `{"path": `+strconv.Quote(cmp.Or(d, "."))+`}`)
			if e != nil {
				t.Fatal(e)
			}
			for _, en := range l.Entries {
				p := path.Join(d, en.Name)
				if p == ".git" {
					continue
				}
				if en.Ignored != truth.Ignored[p] {
					diffs = append(diffs, "list_directory marks "+p+" ignored="+strconv.FormatBool(en.Ignored)+", git check-ignore says "+strconv.FormatBool(truth.Ignored[p]))
				}
			}
		}
		s.Close()
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
