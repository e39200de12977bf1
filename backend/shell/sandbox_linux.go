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
	info := SandboxInfo{Active: true, Kind: "landlock", Level: abi, Readable: summarize(p.Readable), Writable: p.Writable, Network: true}
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
	if !p.Network {
		if err := denySockets(); err != nil {
			fmt.Fprintln(os.Stderr, "rooted sandbox:", err)
			return 126
		}
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

// restrict applies p to this process and, through exec, to the command: reads and execution under p.Readable,
// reads and writes under p.Writable (renames across its directories included), and the device files programs use.
func restrict(p Policy) error {
	cfg := landlock.V7.BestEffort()
	var roDirs, roFiles []string
	for _, r := range p.Readable {
		if fi, err := os.Stat(r); err == nil && fi.IsDir() {
			roDirs = append(roDirs, r)
		} else if err == nil {
			roFiles = append(roFiles, r)
		}
	}
	rules := []landlock.Rule{
		landlock.RODirs(roDirs...).IgnoreIfMissing(),
		landlock.ROFiles(roFiles...).IgnoreIfMissing(),
		landlock.RWDirs(p.Writable...).WithRefer().IgnoreIfMissing(),
		landlock.RWFiles("/dev/null", "/dev/zero", "/dev/full", "/dev/tty", "/dev/random", "/dev/urandom").IgnoreIfMissing(),
	}
	// One layer for files, network and scopes: a second layer (RestrictNet after RestrictPaths) would deny every
	// rename or link across directories with EXDEV, as a Landlock layer that does not grant "refer" denies it.
	// With the network allowed, the layer does not handle it at all. The scopes (ABI 6) keep the command from
	// signalling processes outside the sandbox and from abstract unix sockets made outside it.
	if p.Network {
		cfg.HandledAccessNet = 0
	}
	if err := cfg.Restrict(rules...); err != nil {
		return fmt.Errorf("applying the sandbox policy: %w", err)
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
