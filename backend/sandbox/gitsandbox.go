package sandbox

import (
	"context"
	"os"
	"os/exec"
	"sync"

	"github.com/rooted-dev/rooted/backend/cmdenv"
)

// The sandbox for Rooted's own git (package gitexec): the helper that sandboxes commands also runs git, under a
// policy of its own. Git reads the system's folders, /etc but its private entries, and what the caller lists; it
// writes only what the caller lists; it has no network. Its standard input and the descriptors the caller passes
// (a lock git must hold while it runs) reach it.

var gitSandboxProbe = sync.OnceValue(func() bool { return Probe(Policy{}).Active })

// GitSandboxAvailable reports whether this OS has a sandbox git can run in.
func GitSandboxAvailable() bool { return gitSandboxProbe() }

// GitCommand returns the command that runs argv (git, by its absolute path) through the sandbox helper: reading
// the system and read, writing only write, with no network, keeping stdin and files descriptors from 3 on. Where
// there is no sandbox it runs argv as it is.
func GitCommand(ctx context.Context, argv, read, write []string, files int) (*exec.Cmd, error) {
	// Rooted's own git reads the system's git configuration too (commands do not: it is in the Credentials table).
	etc := cmdenv.EtcEntries("/etc")
	if _, err := os.Stat("/etc/gitconfig"); err == nil {
		etc = append(etc, "/etc/gitconfig")
	}
	p := Policy{Readable: append(append([]string{}, cmdenv.SystemReadable...), etc...), Writable: write, Stdin: true, Files: files}
	p.Readable = append(p.Readable, read...)
	b := Platform()
	l, err := b.Launch(argv, p, b.Probe(p))
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, l.Argv[0], l.Argv[1:]...)
	cmd.Env = l.Env
	if l.Setup != nil {
		l.Setup(cmd)
	}
	return cmd, nil
}
