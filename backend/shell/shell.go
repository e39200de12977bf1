// Package shell runs a program for the agent inside the project, and nowhere else: argv without a shell, in the
// session's working directory, with a timeout that ends the whole process group, output kept within a fixed amount
// of memory, and through the sandbox backend of the platform (package sandbox), which confines it to its policy and
// ends every process it started before Run returns. It depends on no platform's sandbox: a backend that cannot
// start a command as probed offers a weaker mode (sandbox.Backend.Weaker) and the result's Sandbox says which ran.
//
// Not guaranteed: without an OS sandbox (sandbox.None: macOS, Windows, old Linux kernels) a program on the
// allowlist can read and write wherever the user can, and a program that leaves its process group (setsid) can
// outlive a timeout.
package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os/exec"
	"slices"
	"time"

	"github.com/rooted-dev/rooted/backend/sandbox"
)

// Spec is one command to run.
type Spec struct {
	Argv    []string
	Dir     string // absolute working directory
	Env     []string
	Timeout time.Duration
	// Grace is how long the process group has between TERM and KILL (default 2 s).
	Grace time.Duration
	// OutputCap bounds each of stdout and stderr in memory (default DefaultOutputCap).
	OutputCap int
	Policy    sandbox.Policy
	// Sandbox is Backend.Probe(Policy), passed in so it is computed once per session.
	Sandbox sandbox.Info
	// Backend confines the command; nil is this platform's (sandbox.Platform).
	Backend sandbox.Backend
	// Live, when set, receives output as it is written ("stdout" or "stderr").
	Live func(stream string, chunk []byte)
	// EnvDropped is how many of the caller's variables Env left out; the result reports it.
	EnvDropped int
	// Proxy serves the command's connections in allow-list mode (Policy.Proxied, where the sandbox could give
	// the command a network namespace: Sandbox.Proxy); nil leaves it without a way out.
	Proxy Proxy
}

// Proxy is the one way out of a command's network namespace (package netproxy).
type Proxy interface {
	// Serve answers the connections on ln until ctx ends.
	Serve(ctx context.Context, ln net.Listener) error
	// Refused lists the hosts it refused without the user's answer.
	Refused() []string
	// Declined lists where the user, asked while the command ran, declined: host:port.
	Declined() []string
	// Unallowable lists the hosts of Refused no allow rule would let through.
	Unallowable() []string
}

// DefaultOutputCap keeps up to 256 KiB of each stream: 128 KiB from the start and 128 KiB from the end.
const DefaultOutputCap = 256 << 10

// Result is what a command did.
type Result struct {
	Stdout     string       `json:"stdout"`
	Stderr     string       `json:"stderr"`
	ExitCode   int          `json:"exit_code"`
	TimedOut   bool         `json:"timed_out"`
	Cancelled  bool         `json:"cancelled"`
	DurationMS int64        `json:"duration_ms"`
	Truncated  bool         `json:"truncated"`
	Bytes      int64        `json:"bytes"` // stdout and stderr as written, before any cut
	Sandbox    sandbox.Info `json:"sandbox"`
	// EnvDropped is how many of Rooted's environment variables the command did not get (secrets, and whatever
	// builds do not need).
	EnvDropped int `json:"env_dropped"`
	// NetworkRefused are the hosts the command tried to reach in allow-list mode that are not on the project's
	// list (or resolve to an address commands never reach).
	NetworkRefused []string `json:"network_refused,omitempty"`
	// NetworkUnallowable are the hosts of NetworkRefused that no allow rule would let through (a deny rule, an
	// address commands never reach, a name that is not plain): the window offers no rule for them.
	NetworkUnallowable []string `json:"network_unallowable,omitempty"`
	// NetworkDeclined are where the user, asked while the command ran (the window), declined: host:port, as an
	// answer covers that port alone.
	NetworkDeclined []string `json:"network_declined,omitempty"`
}

// ErrAbort, as the cause of the context's cancellation (context.WithCancelCause), ends the command at once: every
// process is KILLed with no grace period. For a command found doing what it must not (changing what tools outside
// the sandbox run), where each moment it still runs is one more chance to do it again.
var ErrAbort = errors.New("the command was ended at once")

// ErrStart says the program could not be started at all (not installed, not executable).
var ErrStart = errors.New("could not start the program")

// Run runs spec.Argv and waits for it, its timeout, or ctx. A non-zero exit is a Result, not an error.
func Run(ctx context.Context, spec Spec) (Result, error) {
	if len(spec.Argv) == 0 {
		return Result{}, errors.New("empty command")
	}
	if spec.OutputCap <= 0 {
		spec.OutputCap = DefaultOutputCap
	}
	if spec.Grace <= 0 {
		spec.Grace = 2 * time.Second
	}
	if spec.Backend == nil {
		spec.Backend = sandbox.Platform()
	}
	if _, err := exec.LookPath(spec.Argv[0]); err != nil {
		return Result{}, fmt.Errorf("%w: %s is not installed or not on PATH", ErrStart, spec.Argv[0])
	}
	spec.Policy.GraceMS = spec.Grace.Milliseconds()
	stdout, stderr := newCapture(spec.OutputCap, spec.live("stdout")), newCapture(spec.OutputCap, spec.live("stderr"))
	begun := time.Now()
	cmd, launch, err := start(spec, stdout, stderr)
	if err != nil {
		return Result{}, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	proxied := serveProxy(spec.Proxy, launch.Bridge)

	var timer <-chan time.Time
	if spec.Timeout > 0 {
		t := time.NewTimer(spec.Timeout)
		defer t.Stop()
		timer = t.C
	}
	res := Result{Sandbox: launch.Info, EnvDropped: spec.EnvDropped}
	hardAfter := spec.Grace + launch.Linger
	var waitErr error
	select {
	case waitErr = <-done:
	case <-timer:
		res.TimedOut = true
		waitErr = stop(cmd, launch, done, hardAfter)
	case <-ctx.Done():
		res.Cancelled = true
		if errors.Is(context.Cause(ctx), ErrAbort) {
			waitErr = abort(cmd, launch, done)
		} else {
			waitErr = stop(cmd, launch, done, hardAfter)
		}
	}
	// A finished leader can leave children behind in its group; they go with it.
	signalTree(cmd, true)
	res.NetworkRefused, res.NetworkDeclined, res.NetworkUnallowable = proxied()
	res.DurationMS = time.Since(begun).Milliseconds()
	var t1, t2 bool
	res.Stdout, t1 = stdout.String()
	res.Stderr, t2 = stderr.String()
	res.Truncated = t1 || t2
	res.Bytes = stdout.Total() + stderr.Total()
	var exitErr *exec.ExitError
	switch {
	case waitErr == nil:
	case errors.As(waitErr, &exitErr):
		res.ExitCode = exitErr.ExitCode()
		if res.ExitCode == -1 { // ended by a signal
			res.ExitCode = 128 + signalNumber(exitErr)
		}
	case errors.Is(waitErr, exec.ErrWaitDelay):
	default:
		return res, waitErr
	}
	return res, nil
}

// live passes output of stream to spec.Live, if set.
func (spec Spec) live(stream string) func([]byte) {
	if spec.Live == nil {
		return nil
	}
	return func(b []byte) { spec.Live(stream, b) }
}

// start starts spec's command through its sandbox backend, in a process group of its own, and when the backend
// cannot start it as probed, in what the backend offers as weaker (the result's Sandbox says which).
func start(spec Spec, stdout, stderr io.Writer) (*exec.Cmd, sandbox.Launch, error) {
	info := spec.Sandbox
	for {
		launch, err := spec.Backend.Launch(spec.Argv, spec.Policy, info)
		if err != nil {
			return nil, launch, err
		}
		cmd := exec.Command(launch.Argv[0], launch.Argv[1:]...)
		// A new slice: spec.Env may be shared by concurrent runs, and have room that append would write into.
		cmd.Dir, cmd.Env = spec.Dir, append(slices.Clip(spec.Env), launch.Env...)
		cmd.Stdin = nil // /dev/null: nothing waits for input that never comes
		cmd.Stdout, cmd.Stderr = stdout, stderr
		// Pipes close when the process group is gone even if a grandchild kept them open.
		cmd.WaitDelay = spec.Grace + launch.Linger + time.Second
		ownGroup(cmd)
		if launch.Setup != nil {
			launch.Setup(cmd)
		}
		err = sandbox.Start(cmd) // from a thread that outlives the command, which dies with it
		if err == nil {
			return cmd, launch, nil
		}
		if launch.Bridge != nil {
			launch.Bridge.Close()
		}
		weaker, ok := spec.Backend.Weaker(info)
		if !ok {
			return nil, launch, fmt.Errorf("%w: %v", ErrStart, err)
		}
		info = weaker
	}
}

// serveProxy serves p on the listener the sandbox hands over through b (allow-list mode) while the command runs;
// the function it returns stops it (and so any ask still waiting) and says which hosts it refused, which the
// user declined, and which of the refused no allow rule would let through. Without a bridge there is nothing to
// serve; without a proxy the listener is closed, and the command has no way out.
func serveProxy(p Proxy, b *sandbox.Bridge) func() (refused, declined, unallowable []string) {
	if b == nil {
		return func() ([]string, []string, []string) { return nil, nil, nil }
	}
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan struct{})
	go func() {
		defer close(served)
		// The helper sends the listener before the command starts, or ends (closing its end) when it cannot.
		ln, err := b.Listener(time.Minute)
		if err != nil {
			return
		}
		defer ln.Close()
		if p != nil {
			_ = p.Serve(ctx, ln) // what it refused is asked for below; an accept error ends a command's proxy
		}
	}()
	return func() ([]string, []string, []string) {
		stop()
		<-served
		if p == nil {
			return nil, nil, nil
		}
		return p.Refused(), p.Declined(), p.Unallowable()
	}
}

// abort KILLs every process of the command now: through the backend's helper, which holds processes that left the
// group (and, in a PID namespace, every one), and the group itself right after, for a helper that could not.
func abort(cmd *exec.Cmd, launch sandbox.Launch, done <-chan error) error {
	if launch.Abort != nil && cmd.Process != nil {
		freezeGroup(cmd) // first: nothing in the group runs on while the helper gets to its work
		_ = cmd.Process.Signal(launch.Abort)
		select {
		case err := <-done:
			return err
		case <-time.After(launch.Linger):
		}
	}
	signalTree(cmd, true)
	return <-done
}

// stop ends the process group: TERM, then KILL after the grace period. A helper that relays the TERM gets it
// alone, so that every process of the command has its grace from the helper's count.
func stop(cmd *exec.Cmd, launch sandbox.Launch, done <-chan error, grace time.Duration) error {
	if launch.Relays {
		termLeader(cmd)
	} else {
		signalTree(cmd, false)
	}
	select {
	case err := <-done:
		return err
	case <-time.After(grace):
		signalTree(cmd, true)
		return <-done
	}
}
