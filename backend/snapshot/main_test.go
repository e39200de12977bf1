package snapshot

import (
	"os"
	"testing"

	"github.com/rooted-dev/rooted/backend/sandbox"
)

// TestMain lets this binary be the sandbox helper. The tests that are about the sandbox switch it on for
// themselves (attack_test.go), and the fault-injection test runs the real binaries, which always use it; the rest
// run git hardened but unsandboxed, which is quicker and the same in what they check.
func TestMain(m *testing.M) {
	sandbox.RunHelperIfAsked()
	os.Exit(m.Run())
}
