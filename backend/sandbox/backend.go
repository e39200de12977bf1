package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"time"
)

// Backend is what a platform must provide for commands to run confined. A backend whose Probe reports Active
// holds, for every command it starts under a Policy: reads only under Readable and Writable (so the credentials
// left out of Readable stay unreadable), writes only under Writable, no connection unless Network (with Proxied,
// only to the caller's proxy, from a network namespace of its own, or none where there is no namespace), the ReadOnly
// paths unchangeable for the whole run (or Info.Protection says "watched (weaker)" and the caller watches them),
// and no process of the command outliving its result or Rooted. conformance_test.go is the table every backend
// must pass; a new platform's backend is an added file that passes it.
type Backend interface {
	// Name says which backend this is ("linux", "none").
	Name() string
	// Probe reports the sandbox a command would run in under p.
	Probe(p Policy) Info
	// Launch says how to start argv under p as info (Probe's answer, perhaps weakened by the caller) describes.
	Launch(argv []string, p Policy, info Info) (Launch, error)
	// Weaker is what to retry with when a command could not be started under info (the namespaces the probe
	// could make are not to be had now), or false when there is nothing weaker to try.
	Weaker(info Info) (Info, bool)
}

// Launch is how to start one confined command.
type Launch struct {
	// Argv is what to execute in place of the command's own argv (a helper that confines it, then runs it).
	Argv []string
	// Env is added to the command's environment (the policy, for a helper).
	Env []string
	// Setup, when set, adjusts the process before it starts (namespaces, a signal on the parent's death); it runs
	// after the caller has put the process in a group of its own.
	Setup func(*exec.Cmd)
	// Linger is how long after the grace period between TERM and KILL the backend may still be ending the
	// command's processes itself: the caller's own KILL waits that much longer.
	Linger time.Duration
	// Info is what the command runs under, Protection included.
	Info Info
	// Abort, when set, is the signal that makes the started process end every process of the command at once
	// (KILL, no grace): a helper that holds processes outside the caller's process group. Without it the caller
	// kills the process group itself.
	Abort os.Signal
	// Relays says the started process is a helper that passes a TERM on to every process of the command, once it
	// has started counting the grace period: the caller TERMs it alone. A TERM to the whole group reached the
	// command's processes before the helper had counted anything, and a program that ended at once on it could be
	// taken by the helper for one that ended on its own, its children KILLed without their grace.
	Relays bool
	// Bridge, in allow-list mode (Info.Proxy), hands over the listener of the command's network namespace once the
	// process has started (Bridge.Listener); the caller closes it if the process does not start.
	Bridge *Bridge
}

// Probe reports the sandbox a command would run in under p on this platform.
func Probe(p Policy) Info { return Platform().Probe(p) }

// The protections a policy's ReadOnly paths get (Info.Protection).
const (
	ProtectionReadOnly = "read-only"
	ProtectionWatched  = "watched (weaker)"
)

// The ways a backend keeps a command's processes together (Info.Processes).
const (
	ProcessesNamespace = "pid namespace"
	ProcessesSubreaper = "subreaper"
)

// None is the backend of platforms without an OS sandbox Rooted can apply (macOS and Windows today, and Linux
// kernels without Landlock, whose backend hands commands to it). It says so: Probe reports Active false, Kind
// "none" and a Reason a user can act on. Commands run with the user's full rights, limited only by the allowlist
// and the path checks; ReadOnly paths are left to the caller to watch ("watched (weaker)"); a process that leaves
// its group can outlive a timeout. It passes none of the conformance table's confinement rows, and the table
// checks that it never claims to.
type None struct{}

// Name is "none".
func (None) Name() string { return "none" }

// Probe reports that there is no sandbox here.
func (None) Probe(p Policy) Info {
	info := Info{Kind: "none", Network: true}
	if p.Proxied {
		info.NetworkNote = "allow-list mode needs the sandbox, and there is none here: commands reach every host"
	}
	info.Reason = fmt.Sprintf("no OS sandbox on %s: commands run with your user's full rights, limited only by the allowlist and the path checks", runtime.GOOS)
	return info
}

// Launch runs argv as it is.
func (None) Launch(argv []string, p Policy, info Info) (Launch, error) {
	info.Protection = protection(p, false)
	return Launch{Argv: argv, Info: info}, nil
}

// Weaker: there is nothing weaker than no sandbox.
func (None) Weaker(info Info) (Info, bool) { return info, false }

// protection is how p's ReadOnly paths hold: bound read-only where the backend could, else watched by the caller;
// "" when p lists none.
func protection(p Policy, bound bool) string {
	switch {
	case len(p.ReadOnly) == 0:
		return ""
	case bound:
		return ProtectionReadOnly
	default:
		return ProtectionWatched
	}
}
