package snapshot

import (
	"os"
	"testing"

	"github.com/rooted-dev/rooted/backend/gitexec"
	"github.com/rooted-dev/rooted/backend/shell"
)

// TestMain lets this binary be the sandbox helper, so that the snapshots' git runs sandboxed here as it does in
// rooted.
func TestMain(m *testing.M) {
	shell.RunHelperIfAsked()
	gitexec.UseSandbox()
	os.Exit(m.Run())
}
