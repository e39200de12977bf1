package workspace

import (
	"os"
	"testing"

	"github.com/rooted-dev/rooted/backend/sandbox"
)

// The test binary doubles as the sandbox helper, as the rooted binary does (a job's command re-executes it); and
// the workspaces' settings and snapshots go to throwaway directories, never the developer's own.
func TestMain(m *testing.M) {
	sandbox.RunHelperIfAsked()
	dir, err := os.MkdirTemp("", "rooted-workspace-test-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CACHE_HOME", dir+"/cache")
	os.Setenv("XDG_CONFIG_HOME", dir+"/config")
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
