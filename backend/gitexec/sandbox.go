package gitexec

import (
	"context"
	"os/exec"
)

// Sandboxed reports whether gits started now run inside the sandbox.
func Sandboxed() bool { return false }

// start returns the command for argv.
func (c Cmd) start(ctx context.Context, argv []string) (*exec.Cmd, error) {
	return exec.CommandContext(ctx, argv[0], argv[1:]...), nil
}
