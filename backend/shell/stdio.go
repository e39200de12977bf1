package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"sync"
	"time"

	"github.com/rooted-dev/rooted/backend/sandbox"
)

// StdioSpec is a long-running program Rooted talks to over its standard input and output (an MCP server), started
// in the same sandbox as a command: Policy, Sandbox and Backend as for Spec, with the caller's standard input kept.
type StdioSpec struct {
	Argv []string
	Dir  string // absolute working directory
	Env  []string
	// Policy is where the program may read and write and whether it may connect; Stdin is set by StartStdio.
	Policy  sandbox.Policy
	Sandbox sandbox.Info
	// Backend confines the program; nil: this platform's (sandbox.Platform).
	Backend sandbox.Backend
	// Stderr receives the program's error output (the caller bounds it); nil discards it.
	Stderr io.Writer
	// Grace is how long the program's processes have between TERM and KILL when it is stopped (default 2 s).
	Grace time.Duration
	// Proxy serves the program's connections in allow-list mode (Policy.Proxied, where the sandbox gave it a
	// network namespace: Sandbox.Proxy) for as long as it runs; nil leaves it without a way out.
	Proxy Proxy
}

// Stdio is a started program: write requests to Stdin, read answers from Stdout. Stop ends it and everything it
// started; so does Rooted's own end, by the sandbox helper's parent-death signal.
type Stdio struct {
	Stdin  io.WriteCloser
	Stdout io.ReadCloser
	Info   sandbox.Info // the sandbox it runs in

	cmd     *exec.Cmd
	relays  bool // the helper passes a TERM on (sandbox.Launch.Relays): it alone gets it
	grace   time.Duration
	done    chan struct{}
	err     error // set before done closes
	stop    sync.Once
	proxied func() (refused, declined, unallowable []string)
}

// StartStdio starts spec.Argv with pipes for its standard input and output. ctx bounds only the start; the program
// runs until Stop, or until it ends by itself (Done).
func StartStdio(ctx context.Context, spec StdioSpec) (*Stdio, error) {
	if len(spec.Argv) == 0 {
		return nil, errors.New("empty command")
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if _, err := exec.LookPath(spec.Argv[0]); err != nil {
		return nil, fmt.Errorf("%w: %s is not installed or not on PATH", ErrStart, spec.Argv[0])
	}
	if spec.Grace <= 0 {
		spec.Grace = 2 * time.Second
	}
	if spec.Backend == nil {
		spec.Backend = sandbox.Platform()
	}
	spec.Policy.Stdin = true
	spec.Policy.GraceMS = spec.Grace.Milliseconds()
	p, err := startPiped(spec)
	if err != nil {
		return nil, err
	}
	go func() {
		p.err = p.cmd.Wait()
		// The proxy serves the program's namespace until the program is gone.
		p.proxied()
		close(p.done)
	}()
	return p, nil
}

// startPiped starts the program as the backend says, with a weaker sandbox when the one probed cannot be had now
// (as Run does).
func startPiped(spec StdioSpec) (*Stdio, error) {
	info := spec.Sandbox
	for {
		launch, err := spec.Backend.Launch(spec.Argv, spec.Policy, info)
		if err != nil {
			return nil, err
		}
		p, err := startOnce(spec, launch)
		if err == nil {
			return p, nil
		}
		weaker, ok := spec.Backend.Weaker(info)
		if !ok {
			return nil, fmt.Errorf("%w: %v", ErrStart, err)
		}
		info = weaker
	}
}

func startOnce(spec StdioSpec, launch sandbox.Launch) (*Stdio, error) {
	cmd := exec.Command(launch.Argv[0], launch.Argv[1:]...)
	cmd.Dir, cmd.Env = spec.Dir, append(slices.Clip(spec.Env), launch.Env...)
	cmd.Stderr = spec.Stderr
	if cmd.Stderr == nil {
		cmd.Stderr = io.Discard
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	grace := spec.Grace + launch.Linger
	// Wait returns once the group is gone even if a grandchild holds the error pipe open.
	cmd.WaitDelay = grace + time.Second
	ownGroup(cmd)
	if launch.Setup != nil {
		launch.Setup(cmd)
	}
	if err := sandbox.Start(cmd); err != nil { // from a thread that outlives the program, which dies with it
		if launch.Bridge != nil {
			launch.Bridge.Close()
		}
		return nil, err
	}
	proxied := serveProxy(spec.Proxy, launch.Bridge)
	return &Stdio{Stdin: stdin, Stdout: stdout, Info: launch.Info, cmd: cmd, relays: launch.Relays, grace: grace, done: make(chan struct{}), proxied: proxied}, nil
}

// Done is closed when the program has ended and its pipes are closed.
func (p *Stdio) Done() <-chan struct{} { return p.done }

// Err is how the program ended (nil for exit status 0); only meaningful after Done.
func (p *Stdio) Err() error {
	<-p.done
	return p.err
}

// Pid is the process id of what Rooted started (the sandbox helper, when there is a sandbox).
func (p *Stdio) Pid() int { return p.cmd.Process.Pid }

// Stop closes the program's input (a polite server exits on it), then ends its process group with TERM and, after
// the grace period, KILL, and returns once it is gone.
func (p *Stdio) Stop() {
	p.stop.Do(func() {
		_ = p.Stdin.Close()
		select {
		case <-p.done:
		case <-time.After(100 * time.Millisecond):
			if p.relays {
				termLeader(p.cmd)
			} else {
				signalTree(p.cmd, false)
			}
			select {
			case <-p.done:
			case <-time.After(p.grace):
				signalTree(p.cmd, true)
				<-p.done
			}
		}
		// A leader that left children in its group takes them with it.
		signalTree(p.cmd, true)
	})
	<-p.done
}
