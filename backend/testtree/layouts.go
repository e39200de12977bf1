package testtree

import (
	"os"
	"testing"

	"github.com/rooted-dev/rooted/backend/testcorpus"
)

// IgnoreProject is a project whose ignore files take every turn a matcher can miss: nested .gitignore files,
// negation (!keep.log), an anchored folder (/build/ but not cmd/build/), a pattern that matches a folder by name
// (coverage), re-inclusion from a deeper file, hidden files and a binary one. Every file holds "needle", so a
// search lists exactly the files it reads. It returns a fresh map each time: a test may change its copy.
func IgnoreProject() map[string]string {
	return map[string]string{
		".gitignore":              "*.log\n/build/\nnode_modules/\n!keep.log\ncoverage\n",
		"main.go":                 "package main\n// needle in main\n",
		"keep.log":                "needle kept\n",
		"debug.log":               "needle ignored\n",
		"build/out.go":            "needle built\n",
		"cmd/build/tool.go":       "needle not anchored\n",
		"node_modules/dep/i.js":   "needle dep\n",
		"src/.gitignore":          "gen/\n*.tmp\n!important.tmp\n",
		"src/app.ts":              "const needle = 1\n",
		"src/gen/api.ts":          "needle generated\n",
		"src/x.tmp":               "needle tmp\n",
		"src/important.tmp":       "needle important\n",
		"src/deep/.gitignore":     "!*.log\n",
		"src/deep/trace.log":      "needle re-included\n",
		".hidden/secret.txt":      "needle hidden\n",
		".env":                    "needle env\n",
		"docs/coverage/report.md": "needle coverage\n",
		"bin.dat":                 "needle\x00binary\n",
	}
}

// Corpus opens the tree the search benchmarks read (testcorpus.Search) as a root, closed when the benchmark ends,
// and returns it with its path. Without one the benchmark is skipped: it has nothing to measure.
func Corpus(tb testing.TB) (*os.Root, string) {
	tb.Helper()
	dir := testcorpus.Search()
	r, err := os.OpenRoot(dir)
	if err != nil {
		tb.Skip("no corpus:", err)
	}
	tb.Cleanup(func() { r.Close() })
	return r, dir
}
