package index

import (
	"os"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/ignore/ignoretest"
	"github.com/rooted-dev/rooted/backend/search"
	"github.com/rooted-dev/rooted/backend/testtree"
)

func TestMain(m *testing.M) { ignoretest.Main(m) }

func init() {
	buildDelay = 0                      // the tests wait for builds; nothing here competes with them
	racyWindow = 300 * time.Millisecond // the tests' files are all new: those that must be trusted are made earlier
}

// fixture is the tree of files, opened as a root.
func fixture(t *testing.T, files map[string]string) (*os.Root, string) {
	return testtree.Root(t, files)
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
var repoFiles = testtree.IgnoreProject()
