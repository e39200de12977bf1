//go:build linux

package sandbox

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"unsafe"

	"github.com/landlock-lsm/go-landlock/landlock"
	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// The helper's second stage runs in the command's own process: it applies the policy (Landlock, the seccomp
// filter), gives up every capability, and executes the command in its place, which inherits all of it. Credentials
// belong to threads, so all of this happens on one locked thread, the one that executes the command. In a PID
// namespace the first stage does the same to itself and starts the command from that thread (confineSelf).

func confine(argv []string) int {
	runtime.LockOSThread()
	var p Policy
	if err := json.Unmarshal([]byte(os.Getenv(policyEnv)), &p); err != nil {
		fmt.Fprintln(os.Stderr, "rooted sandbox: bad policy:", err)
		return 126
	}
	os.Unsetenv(policyEnv)
	cloexecFrom(3 + p.Files)
	path, code := confineSelf(p, argv[0])
	if code != 0 {
		return code
	}
	err := syscall.Exec(path, argv, os.Environ())
	fmt.Fprintf(os.Stderr, "rooted sandbox: exec %s: %v\n", path, err)
	return 126
}

// confineSelf applies p to this process (Landlock and the seccomp filter, on every thread), drops the
// capabilities of this thread, which must be locked and is the one to start the program, and finds the program
// on PATH. A non-zero exit code says it could not.
func confineSelf(p Policy, program string) (string, int) {
	abi, _ := llsys.LandlockGetABIVersion()
	last := lastCap() // before Landlock, which may deny /proc
	if err := restrict(p, abi, commandDevices, true); err != nil {
		fmt.Fprintln(os.Stderr, "rooted sandbox:", err)
		return "", 126
	}
	if err := installFilter(filterFor(p, abi)); err != nil {
		fmt.Fprintln(os.Stderr, "rooted sandbox:", err)
		return "", 126
	}
	path, err := exec.LookPath(program)
	if err != nil {
		fmt.Fprintf(os.Stderr, "rooted sandbox: %s: not found on PATH\n", program)
		return "", 127
	}
	if err := dropCapabilities(thisThread, last); err != nil {
		fmt.Fprintln(os.Stderr, "rooted sandbox:", err)
		return "", 126
	}
	return path, 0
}

// The device files programs use: commands, and a process confining itself, which has no terminal.
var (
	commandDevices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/tty", "/dev/random", "/dev/urandom"}
	selfDevices    = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"}
)

// restrict applies p to this process and, through exec, to the command: reads and execution under p.Readable,
// reads and writes under p.Writable (renames across its directories included when refer: from Landlock ABI 2, as
// go-landlock's best effort applies no layer at all on ABI 1 to a rule that asks for it), the device files
// devices, and, from Landlock ABI 9, connecting to the unix socket files in p.Sockets (and the command's own) only.
func restrict(p Policy, abi int, devices []string, refer bool) error {
	cfg := landlock.V11.BestEffort()
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
		writable(p.Writable, refer),
		landlock.RWFiles(devices...).IgnoreIfMissing(),
	}
	if len(p.Sockets) > 0 && abi >= resolveUnixABI {
		rules = append(rules, landlock.PathAccess(landlock.AccessFSSet(llsys.AccessFSResolveUnix), p.Sockets...).IgnoreIfMissing())
	}
	// One layer for files, network and scopes: a second layer (RestrictNet after RestrictPaths) would deny every
	// rename or link across directories with EXDEV, as a Landlock layer that does not grant "refer" denies it.
	// With the network allowed, the layer does not handle it at all. The scopes (ABI 6) keep the command from
	// signalling processes outside the sandbox (the helper included) and from abstract unix sockets made
	// outside it.
	// In allow-list mode the one port the command may connect to is the proxy's, in its own network namespace.
	switch {
	case p.Network:
		cfg.HandledAccessNet = 0
	case p.Proxied:
		rules = append(rules, landlock.ConnectTCP(ProxyPort))
	}
	if err := cfg.Restrict(rules...); err != nil {
		return fmt.Errorf("applying the sandbox policy: %w", err)
	}
	return nil
}

// Secure bits that keep uid 0 from meaning capabilities again: not at exec, not on a setuid, not through the
// ambient set; each locked.
const lockedSecureBits = 1<<0 | 1<<1 | // SECBIT_NOROOT and its lock
	1<<2 | 1<<3 | // SECBIT_NO_SETUID_FIXUP and its lock
	1<<5 | // SECBIT_KEEP_CAPS_LOCKED
	1<<6 | 1<<7 // SECBIT_NO_CAP_AMBIENT_RAISE and its lock

// sysFunc makes a system call: on this thread alone (thisThread), or on every thread of the process (psx).
// Six arguments, as prctl needs its unused ones zero.
type sysFunc func(trap, a1, a2, a3, a4, a5, a6 uintptr) (r1, r2 uintptr, err syscall.Errno)

// thisThread makes a system call on the calling thread, which the caller has locked.
func thisThread(trap, a1, a2, a3, a4, a5, a6 uintptr) (uintptr, uintptr, syscall.Errno) {
	return unix.RawSyscall6(trap, a1, a2, a3, a4, a5, a6)
}

// dropCapabilities empties every capability set of the threads sys reaches: securebits first (they need
// CAP_SETPCAP), then the bounding set (likewise; last is the highest capability, lastCap's), the ambient set, then
// inheritable, permitted and effective. An
// unprivileged process outside a user namespace holds nothing and may not shrink its bounding set; no_new_privs
// (set with Landlock) keeps it from gaining any through exec.
func dropCapabilities(sys sysFunc, last int) error {
	prctl := func(option, arg2, arg3 uintptr) error {
		if _, _, e := sys(unix.SYS_PRCTL, option, arg2, arg3, 0, 0, 0); e != 0 {
			return e
		}
		return nil
	}
	if err := prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0); err != nil {
		return fmt.Errorf("no_new_privs: %w", err)
	}
	// Static, not on a stack that could move while sys (psx: every thread, one after another) holds their address.
	hdr, data := &capHeader, &capData
	*hdr = unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	if err := unix.Capget(hdr, &data[0]); err != nil {
		return fmt.Errorf("reading capabilities: %w", err)
	}
	privileged := data[0].Effective&(1<<unix.CAP_SETPCAP) != 0
	if privileged {
		if err := prctl(unix.PR_SET_SECUREBITS, lockedSecureBits, 0); err != nil {
			return fmt.Errorf("securebits: %w", err)
		}
		for c := 0; c <= last; c++ {
			if err := prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0); err != nil && err != unix.EINVAL {
				return fmt.Errorf("dropping capability %d from the bounding set: %w", c, err)
			}
		}
	}
	if err := prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0); err != nil && err != unix.EINVAL {
		return fmt.Errorf("clearing ambient capabilities: %w", err)
	}
	*data = [2]unix.CapUserData{}
	if _, _, e := sys(unix.SYS_CAPSET, uintptr(unsafe.Pointer(hdr)), uintptr(unsafe.Pointer(&data[0])), 0, 0, 0, 0); e != 0 {
		return fmt.Errorf("dropping capabilities: %w", e)
	}
	return nil
}

// writable is the rule for folders a process reads and writes, renames across them included when refer.
func writable(dirs []string, refer bool) landlock.Rule {
	if refer {
		return landlock.RWDirs(dirs...).WithRefer().IgnoreIfMissing()
	}
	return landlock.RWDirs(dirs...).IgnoreIfMissing()
}

// capset's arguments (dropCapabilities), once a process.
var (
	capHeader unix.CapUserHeader
	capData   [2]unix.CapUserData
)

// lastCap is the highest capability this kernel knows.
func lastCap() int {
	b, err := os.ReadFile("/proc/sys/kernel/cap_last_cap")
	if err != nil {
		return 63
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		return 63
	}
	return n
}
