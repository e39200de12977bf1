package cli

import (
	"os"
	"testing"

	"github.com/rooted-dev/rooted/backend/shell"
)

// The test binary doubles as the sandbox helper, as the rooted binary does.
func TestMain(m *testing.M) {
	shell.RunHelperIfAsked()
	os.Exit(m.Run())
}
