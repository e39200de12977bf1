package search

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// askedSource is the disk that records whether a search offered it the candidate walk, and declines it.
type askedSource struct {
	DiskSource
	asked bool
}

func (s *askedSource) WalkCandidates(context.Context, string, Options, func(File, int) bool) (int, bool, error) {
	s.asked = true
	return 0, false, nil
}

// A search with no glob patterns goes to an index's candidates as one with no glob at all: the tools compile the
// patterns they were given, none included, and every search over MCP and the CLI once walked all the files.
func TestNoGlobPatternsUseTheCandidateWalk(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.go"), []byte("needle\n"), 0o644)
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	for _, c := range []struct {
		patterns []string
		want     bool
	}{{nil, true}, {[]string{}, true}, {[]string{" "}, true}, {[]string{"*.go"}, false}, {[]string{"!*.md"}, false}} {
		g, err := CompileGlobs(c.patterns)
		if err != nil {
			t.Fatal(err)
		}
		src := &askedSource{DiskSource: DiskSource{Root: root}}
		res, err := Search(context.Background(), src, "", Options{Query: "needle", Glob: g})
		if err != nil || res.Total != 1 {
			t.Fatalf("globs %q: %+v, %v", c.patterns, res, err)
		}
		if src.asked != c.want {
			t.Errorf("globs %q: candidate walk offered %v, want %v", c.patterns, src.asked, c.want)
		}
	}
}
