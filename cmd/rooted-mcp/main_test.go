package main

import (
	"bytes"
	"context"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/cli"
)

// The server refuses a root it cannot open before it speaks the protocol, and says which and why on stderr (stdout
// is the protocol's). A full session is the MCP end-to-end test's, with the TypeScript SDK against this binary.
func TestRefusesAMissingRoot(t *testing.T) {
	var stderr bytes.Buffer
	missing := filepath.Join(t.TempDir(), "missing")
	gc := debug.SetGCPercent(150)
	defer debug.SetGCPercent(gc)
	code := serve(context.Background(), &stderr, []string{"--root", missing})
	if code != cli.ExitToolError || !strings.Contains(stderr.String(), "cannot open project root "+missing) || !strings.Contains(stderr.String(), "not_found") {
		t.Errorf("exit %d, %q", code, stderr.String())
	}
	// The collector, off until the handshake is answered, is as it was.
	if now := debug.SetGCPercent(gc); now != 150 {
		t.Errorf("GC percent after a refused root: %d, want 150", now)
	}
}

func TestUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--help"}, cli.ExitOK, "Usage: rooted mcp"},
		{[]string{"--bogus"}, cli.ExitUsage, "flag provided but not defined: -bogus"},
		{[]string{"extra"}, cli.ExitUsage, `unexpected argument "extra"`},
	} {
		var stderr bytes.Buffer
		if code := serve(context.Background(), &stderr, c.args); code != c.code || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%v: exit %d, %q", c.args, code, stderr.String())
		}
	}
}
