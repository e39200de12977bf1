package sandbox

import (
	"os"
	"testing"
)

// The test binary doubles as the sandbox helper, as the rooted binary does.
func TestMain(m *testing.M) {
	RunHelperIfAsked()
	os.Exit(m.Run())
}
