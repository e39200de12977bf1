package shell

import (
	"os"
	"testing"

	"github.com/rooted-dev/rooted/backend/sandbox"
)

// The test binary doubles as the sandbox helper, as the rooted binary does.
func TestMain(m *testing.M) {
	sandbox.RunHelperIfAsked()
	os.Exit(m.Run())
}
