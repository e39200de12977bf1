package tools

import (
	"os"
	"testing"

	"github.com/rooted-dev/rooted/backend/gitexec"
	"github.com/rooted-dev/rooted/backend/ignore/ignoretest"
	"github.com/rooted-dev/rooted/backend/sandbox"
)

// The test binary doubles as the sandbox helper, as the rooted binary does.
func TestMain(m *testing.M) {
	sandbox.RunHelperIfAsked()
	gitexec.UseSandbox() // Rooted's own git runs in the sandbox too
	cleanup := ignoretest.Isolate()
	code := m.Run()
	cleanup()
	os.Exit(code)
}
