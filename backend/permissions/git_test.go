package permissions

import (
	"strings"
	"testing"
)

// Each step of the git table, both ways: the options that make a subcommand destroy or publish ask, the ones that
// make it safe do not; abbreviations of a destroying option count, of a safe one do not.
func TestSensitiveGit(t *testing.T) {
	t.Parallel()
	for line, want := range map[string]string{
		"git push":                       "publishes",
		"git --no-pager push origin":     "publishes",
		"git send-pack origin main":      "publishes",
		"git rebase main":                "rewrites history",
		"git reset --hard":               "discards uncommitted",
		"git reset --har":                "discards uncommitted",
		"git reset --soft HEAD~1":        "",
		"git clean -fdx":                 "deletes untracked",
		"git clean -n":                   "",
		"git clean --dry":                "deletes untracked",
		"git clean -nd":                  "",
		"git checkout -- a.go":           "paths or with --force",
		"git checkout -f main":           "paths or with --force",
		"git checkout a.go b.go":         "checkout of paths",
		"git checkout main":              "when it is a file",
		"git checkout -b topic":          "",
		"git restore a.go":               "discards changes",
		"git restore --staged a.go":      "",
		"git restore -S -W a.go":         "discards changes",
		"git switch --discard-changes x": "discards changes",
		"git switch topic":               "",
		"git commit --amen":              "rewrites the last commit",
		"git commit -m x":                "",
		"git branch -D topic":            "deletes a branch",
		"git branch -df topic":           "deletes a branch",
		"git branch -d topic":            "",
		"git stash drop":                 "deletes stashed",
		"git stash":                      "",
		"git gc --prune=now":             "deletes unreachable",
		"git gc":                         "",
		"git update-ref -d HEAD":         "update-ref rewrites or deletes",
		"git filter-branch":              "filter-branch rewrites or deletes",
		"git reflog expire --all":        "deletes the record",
		"git reflog":                     "",
		"git worktree remove wt":         "deletes a working tree",
		"git worktree list":              "",
		"git submodule deinit x":         "deletes a submodule",
		"git submodule status":           "",
		"git status":                     "",
		"git frobnicate":                 "not a subcommand Rooted knows",
		"git --bogus-option status":      "does not know",
	} {
		got := sensitiveGit(strings.Fields(line))
		if want == "" && got != "" || want != "" && !strings.Contains(got, want) {
			t.Errorf("%s: %q, want %q", line, got, want)
		}
	}
}
