package search

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/rooted-dev/rooted/backend/testtree"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// TestGolden pins the exact results of representative searches; run with -update after an intended change and
// review the diff.
func TestGolden(t *testing.T) {
	t.Parallel()
	r, _ := testtree.Root(t, map[string]string{
		".gitignore":          "dist/\n",
		"README.md":           "# Demo\n\nSee `Parse` in parse.go.\n",
		"parse.go":            "package demo\n\n// Parse reads a config.\nfunc Parse(s string) (*Config, error) {\n\tif s == \"\" {\n\t\treturn nil, ErrEmpty\n\t}\n\treturn &Config{Raw: s}, nil\n}\n",
		"parse_test.go":       "package demo\n\nfunc TestParse(t *testing.T) {\n\tParse(\"x\")\n}\n",
		"internal/cfg/cfg.go": "package cfg\n\ntype Config struct{ Raw string }\n\nvar ErrEmpty = errors.New(\"empty\")\n",
		"dist/bundle.js":      "Parse(ignored)\n",
		"notes.txt":           "parse PARSE Parse\r\nsecond line\r\n",
	})
	cases := []struct {
		name string
		opt  Options
		dir  string
	}{
		{"literal", Options{Query: "Parse"}, "."},
		{"context", Options{Query: "ErrEmpty", Context: 1}, "."},
		{"case-insensitive-files", Options{Query: "parse", CaseInsensitive: true, Output: OutputFiles}, "."},
		{"regex-count", Options{Query: `func \w+\(`, Regex: true, Output: OutputCount}, "."},
		{"glob-exclude", Options{Query: "Parse", Glob: mustGlob(t, "*.go", "!*_test.go")}, "."},
		{"subdir", Options{Query: "Config"}, "internal"},
		{"limit", Options{Query: "Parse", Limit: 2}, "."},
	}
	for _, c := range cases {
		res, err := Search(context.Background(), DiskSource{Root: r}, c.dir, c.opt)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got, _ := json.MarshalIndent(res, "", "  ")
		got = append(got, '\n')
		file := filepath.Join("testdata", "golden", c.name+".json")
		if *update {
			os.MkdirAll(filepath.Dir(file), 0o755)
			if err := os.WriteFile(file, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(file)
		if err != nil {
			t.Fatalf("%s: %v (run go test -update to create it)", c.name, err)
		}
		if string(got) != string(want) {
			t.Errorf("%s: got\n%s\nwant\n%s", c.name, got, want)
		}
	}
}
