package tools

import (
	"cmp"
	"os"
	"path"
	"strconv"
	"testing"

	"github.com/rooted-dev/rooted/backend/ignore/ignoretest"
	"github.com/rooted-dev/rooted/backend/session"
)

// TestIgnoredAgreesWithGit: on random trees with nested ignore files, what the model sees through the tools agrees
// with git: find_files lists git's untracked, not ignored files, and list_directory's ignored flag on every file,
// folder and link is git check-ignore's answer.
func TestIgnoredAgreesWithGit(t *testing.T) {
	t.Parallel()
	ignoretest.Check(t, ignoretest.Seeds(60), func(t *testing.T, tree ignoretest.Tree, root *os.Root, truth ignoretest.Truth) []string {
		s, err := session.Open(root.Name())
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
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
		return diffs
	})
}
