//go:build linux

package shell

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"
	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// Probe reports the sandbox a command would run in under p.
func Probe(p Policy) SandboxInfo {
	abi, err := llsys.LandlockGetABIVersion()
	if err != nil || abi < 1 {
		return SandboxInfo{Reason: fmt.Sprintf("Landlock is not available in this kernel (%v): commands run with your user's full rights", err)}
	}
	info := SandboxInfo{Active: true, Kind: "landlock", Level: abi, Writable: p.Writable, Network: true}
	if !p.Network && abi >= 4 {
		info.Network = false
	}
	return info
}

// RunHelperIfAsked turns this process into the sandbox helper when it was started as one, and never returns then.
func RunHelperIfAsked() {
	if len(os.Args) < 3 || os.Args[1] != HelperArg {
		return
	}
	os.Exit(helper(os.Args[2:]))
}

func helper(argv []string) int {
	var p Policy
	if err := json.Unmarshal([]byte(os.Getenv(policyEnv)), &p); err != nil {
		fmt.Fprintln(os.Stderr, "rooted sandbox: bad policy:", err)
		return 126
	}
	os.Unsetenv(policyEnv)
	if err := restrict(p); err != nil {
		fmt.Fprintln(os.Stderr, "rooted sandbox:", err)
		return 126
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		fmt.Fprintf(os.Stderr, "rooted sandbox: %s: not found on PATH\n", argv[0])
		return 127
	}
	err = syscall.Exec(path, argv, os.Environ())
	fmt.Fprintf(os.Stderr, "rooted sandbox: exec %s: %v\n", path, err)
	return 126
}

// restrict applies p to this process and, through exec, to the command: reads and execution everywhere, writes
// under p.Writable (renames across its directories included), and the device files programs write to.
func restrict(p Policy) error {
	cfg := landlock.V7.BestEffort()
	rules := []landlock.Rule{
		landlock.RODirs("/"),
		landlock.RWDirs(p.Writable...).WithRefer().IgnoreIfMissing(),
		landlock.RWFiles("/dev/null", "/dev/zero", "/dev/full", "/dev/tty", "/dev/random", "/dev/urandom").IgnoreIfMissing(),
	}
	if err := cfg.RestrictPaths(rules...); err != nil {
		return fmt.Errorf("applying the file-system policy: %w", err)
	}
	if !p.Network {
		if err := cfg.RestrictNet(); err != nil {
			return fmt.Errorf("applying the network policy: %w", err)
		}
	}
	return nil
}

// sandboxed wraps argv to run through the helper under p, or returns it unchanged when there is no sandbox.
func sandboxed(argv []string, p Policy, info SandboxInfo) ([]string, []string, error) {
	if !info.Active {
		return argv, nil, nil
	}
	self, err := os.Executable()
	if err != nil {
		return nil, nil, fmt.Errorf("locating the rooted binary for the sandbox helper: %w", err)
	}
	b, err := json.Marshal(p)
	if err != nil {
		return nil, nil, err
	}
	return append([]string{self, HelperArg}, argv...), []string{policyEnv + "=" + string(b)}, nil
}
