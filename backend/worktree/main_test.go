package worktree

import (
	"os"
	"testing"

	"github.com/rooted-dev/rooted/backend/gitexec"
	"github.com/rooted-dev/rooted/backend/ignore/ignoretest"
	"github.com/rooted-dev/rooted/backend/sandbox"
)

// The test binary doubles as the sandbox helper, as the rooted binary does, and Rooted's git runs sandboxed.
func TestMain(m *testing.M) {
	sandbox.RunHelperIfAsked()
	gitexec.UseSandbox()
	cleanup := ignoretest.Isolate()
	code := m.Run()
	cleanup()
	os.Exit(code)
}
