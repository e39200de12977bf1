package gitexec

import (
	"context"
	"os/exec"
	"sync/atomic"

	"github.com/rooted-dev/rooted/backend/sandbox"
)

// sandboxOK says this binary can be its own sandbox helper. It is process-wide on purpose, and the one such
// value gitexec keeps: the sandbox re-executes the running binary as its helper, which works only when that
// binary's main hands over to sandbox.RunHelperIfAsked first thing. That is a fact about the executable, settled in
// main before any project is open, the same for every workspace the process holds and never changing after, so
// there is nothing per project to pass and nothing to go stale. (Whether the kernel allows the sandbox is asked of
// sandbox.GitSandboxAvailable, which probes once: also a fact about the machine, not about a project.)
var sandboxOK atomic.Bool

// UseSandbox lets this process run git inside the command sandbox. Only a binary whose main calls
// sandbox.RunHelperIfAsked first thing may call it (the sandbox re-executes this binary as its helper); elsewhere
// (a test binary without that hook-up) git runs hardened but unsandboxed. The function it returns puts back what
// was in force before (a test that runs a table sandboxed and then not).
func UseSandbox() (restore func()) {
	was := sandboxOK.Swap(true)
	return func() { sandboxOK.Store(was) }
}

// Sandboxed reports whether gits started now run inside the sandbox.
func Sandboxed() bool { return sandboxOK.Load() && sandbox.GitSandboxAvailable() }

// start returns the command for argv: through the sandbox helper when this process may use it and git reads more
// than its own repository.
func (c Cmd) start(ctx context.Context, argv []string) (*exec.Cmd, error) {
	if c.ObjectsOnly || !Sandboxed() {
		return exec.CommandContext(ctx, argv[0], argv[1:]...), nil
	}
	read := append(append([]string{}, c.Read...), c.Dir)
	return sandbox.GitCommand(ctx, argv, read, c.Write, len(c.ExtraFiles))
}
