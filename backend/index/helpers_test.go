package index

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rooted-dev/rooted/backend/ignore/ignoretest"
	"github.com/rooted-dev/rooted/backend/search"
)

func TestMain(m *testing.M) {
	cleanup := ignoretest.Isolate()
	code := m.Run()
	cleanup()
	os.Exit(code)
}

func init() { buildDelay = 0 } // the tests wait for builds; nothing here competes with them

func fixture(t *testing.T, files map[string]string) (*os.Root, string) {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r, dir
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
var repoFiles = map[string]string{
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
