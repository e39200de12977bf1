// Package shell runs a program for the agent inside the project, and nowhere else: argv without a shell, from an
// allowlist, in the session's working directory, with a timeout that ends the whole process group, output kept
// within a fixed amount of memory, secrets left out of the environment, and, where the OS has one, a sandbox that
// lets the program write only inside the project, a private temporary directory and the toolchains' caches, read
// only those and the system's and toolchains' folders (see Readable), and reach the network only when allowed
// (Landlock on Linux, applied by a re-exec helper of the rooted binary itself).
//
// On Linux the paths of Policy.ReadOnly (what tools outside the sandbox run later) are bound read-only in the
// command's mount namespace for its whole run, where it has one (sandbox.Info.Protection says).
//
// On Linux every process a command starts ends with it, and with Rooted if Rooted dies first: the helper is the init of the command's PID namespace (or
// a subreaper where namespaces are not allowed) and kills whatever is left before Run returns. The command holds no
// capability, even when Rooted runs as root, gets /dev/null as input and no descriptor of Rooted's but its output.
//
// Not guaranteed: without an OS sandbox (macOS, Windows, old Linux kernels) a program on the allowlist can read and
// write wherever the user can, and a program that leaves its process group (setsid) can outlive a timeout.
package shell

import (
	"context"
	"errors"
	"fmt"
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
	// Sandbox is sandbox.Probe(Policy), passed in so it is computed once per session.
	Sandbox sandbox.Info
	// Live, when set, receives output as it is written ("stdout" or "stderr").
	Live func(stream string, chunk []byte)
	// EnvDropped is how many of the caller's variables Env left out; the result reports it.
	EnvDropped int
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
}

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
	if _, err := exec.LookPath(spec.Argv[0]); err != nil {
		return Result{}, fmt.Errorf("%w: %s is not installed or not on PATH", ErrStart, spec.Argv[0])
	}
	spec.Policy.GraceMS = spec.Grace.Milliseconds()
	argv, extraEnv, err := sandbox.Sandboxed(spec.Argv, spec.Policy, spec.Sandbox)
	if err != nil {
		return Result{}, err
	}
	live := func(stream string) func([]byte) {
		if spec.Live == nil {
			return nil
		}
		return func(b []byte) { spec.Live(stream, b) }
	}
	stdout, stderr := newCapture(spec.OutputCap, live("stdout")), newCapture(spec.OutputCap, live("stderr"))
	// The sandbox helper ends the command's processes itself, a grace period after TERM; Rooted's own KILL comes
	// later, for a helper that could not. Killing the init of a PID namespace kills everything in it, but killing a
	// subreaper would free what it holds: that KILL waits long enough for a helper slowed by a loaded machine.
	hardAfter := spec.Grace
	switch {
	case spec.Sandbox.Processes == "subreaper":
		hardAfter += 10 * time.Second
	case spec.Sandbox.Active:
		hardAfter += 500 * time.Millisecond
	}
	command := func() *exec.Cmd {
		cmd := exec.Command(argv[0], argv[1:]...)
		// A new slice: spec.Env may be shared by concurrent runs, and have room that append would write into.
		cmd.Dir, cmd.Env = spec.Dir, append(slices.Clip(spec.Env), extraEnv...)
		cmd.Stdin = nil // /dev/null: nothing waits for input that never comes
		cmd.Stdout, cmd.Stderr = stdout, stderr
		// Pipes close when the process group is gone even if a grandchild kept them open.
		cmd.WaitDelay = hardAfter + time.Second
		ownGroup(cmd)
		sandbox.Isolate(cmd, spec.Sandbox)
		return cmd
	}

	start := time.Now()
	cmd := command()
	err = cmd.Start()
	if err != nil && spec.Sandbox.Processes == "pid namespace" {
		// The namespaces the probe could make are not to be had now (a limit on user namespaces reached): the
		// helper keeps the command's processes together as a subreaper instead, and the result says so.
		spec.Sandbox.Processes = "subreaper"
		hardAfter = spec.Grace + 10*time.Second
		cmd = command()
		err = cmd.Start()
	}
	if err != nil {
		return Result{}, fmt.Errorf("%w: %v", ErrStart, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()

	var timer <-chan time.Time
	if spec.Timeout > 0 {
		t := time.NewTimer(spec.Timeout)
		defer t.Stop()
		timer = t.C
	}
	res := Result{Sandbox: spec.Sandbox, EnvDropped: spec.EnvDropped}
	switch {
	case len(spec.Policy.ReadOnly) == 0:
	case spec.Sandbox.Active && spec.Sandbox.Processes == "pid namespace":
		res.Sandbox.Protection = "read-only"
	default:
		res.Sandbox.Protection = "watched (weaker)"
	}
	var waitErr error
	select {
	case waitErr = <-done:
	case <-timer:
		res.TimedOut = true
		waitErr = stop(cmd, done, hardAfter)
	case <-ctx.Done():
		res.Cancelled = true
		waitErr = stop(cmd, done, hardAfter)
	}
	// A finished leader can leave children behind in its group; they go with it.
	signalTree(cmd, true)
	res.DurationMS = time.Since(start).Milliseconds()
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

// stop ends the process group: TERM, then KILL after the grace period.
func stop(cmd *exec.Cmd, done <-chan error, grace time.Duration) error {
	signalTree(cmd, false)
	select {
	case err := <-done:
		return err
	case <-time.After(grace):
		signalTree(cmd, true)
		return <-done
	}
}
