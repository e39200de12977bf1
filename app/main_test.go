package app

import (
	"os"
	"testing"

	"github.com/rooted-dev/rooted/backend/mcpclient/mcpfixture"
	"github.com/rooted-dev/rooted/backend/sandbox"
)

// The test binary doubles as the sandbox helper, as the rooted binary does: a command a test runs through
// exec_shell (the check after an edit) re-executes it.
func TestMain(m *testing.M) {
	sandbox.RunHelperIfAsked()
	mcpfixture.RunIfAsked() // and as the MCP servers a project's settings name
	// Keys the tests save go to the keys file, never to the keyring of the session the tests run in; the tests
	// of the keyring start their own (keys_test.go).
	os.Setenv("DBUS_SESSION_BUS_ADDRESS", "disabled:")
	os.Exit(m.Run())
}
