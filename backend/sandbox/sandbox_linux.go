//go:build linux

package sandbox

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"

	"github.com/rooted-dev/rooted/backend/cmdenv"
)

// Platform returns this platform's backend: Landlock for reads, writes and connections, seccomp for what Landlock
// cannot tell apart, a PID and mount namespace (or a subreaper where none can be made) for processes and the
// read-only binds, all applied by a helper that is the rooted binary itself, re-executed (RunHelperIfAsked).
func Platform() Backend { return linuxBackend{} }

// linuxBackend is the sandbox on Linux.
type linuxBackend struct{}

// Name is "linux".
func (linuxBackend) Name() string { return "linux" }

// Probe reports the sandbox a command would run in under p: none (Active false) on a kernel without Landlock.
func (linuxBackend) Probe(p Policy) Info {
	abi, err := llsys.LandlockGetABIVersion()
	if err != nil || abi < 1 {
		info := Info{Reason: fmt.Sprintf("Landlock is not available in this kernel (%v): commands run with your user's full rights", err)}
		if p.Proxied {
			info.NetworkNote = "allow-list mode needs the sandbox, and there is none here: commands reach every host"
		}
		return info
	}
	info := Info{Active: true, Kind: "landlock", Level: abi, Readable: cmdenv.Summarize(p.Readable), Writable: p.Writable, Network: true}
	if !p.Network && abi >= 4 {
		info.Network = false
	}
	if p.Proxied && !p.Network {
		if netNamespace().flags != 0 {
			info.Network, info.Proxy = false, ProxyAddr
		} else {
			info.NetworkNote = "allow-list mode needs a network namespace of its own for the command, which this system does not let Rooted make (user namespaces are off, or limited): commands have no network instead"
		}
	}
	switch {
	case len(p.Sockets) == 0:
	case abi >= resolveUnixABI:
		info.UnixSockets = p.Sockets
	default:
		info.UnixSockets = []string{"*"}
	}
	ns := namespaces()
	info.Processes = ProcessesSubreaper
	if ns.flags != 0 {
		info.Processes = ProcessesNamespace
	}
	info.Capabilities = "none in effect"
	if os.Geteuid() == 0 || ns.user {
		info.Capabilities = "none"
	}
	return info
}

// resolveUnixABI is the Landlock ABI from which connecting to a unix socket file is a right Landlock grants per
// file: from it on, the sandbox lets commands make unix sockets and connects them only to their own and to the
// sockets the user named; before it, the seccomp filter refuses unix sockets unless the user named one.
const resolveUnixABI = 9

// hooked says that this binary's main calls RunHelperIfAsked, so it can be re-executed as the helper.
var hooked atomic.Bool

// RunHelperIfAsked turns this process into the sandbox helper when it was started as one, and never returns then.
func RunHelperIfAsked() {
	hooked.Store(true)
	if len(os.Args) < 2 {
		return
	}
	switch os.Args[1] {
	case HelperArg:
		if len(os.Args) > 2 {
			os.Exit(reaper(os.Args[2:]))
		}
	case confineArg:
		if len(os.Args) > 2 {
			os.Exit(confine(os.Args[2:]))
		}
	case netProbeArg:
		os.Exit(netProbe())
	case probeArg:
		// Only as the init of a new PID namespace (with a mount namespace of its own): never remount the /proc
		// of the namespace Rooted runs in.
		if os.Getpid() != 1 || ownProc() != nil {
			os.Exit(3)
		}
		os.Exit(0)
	}
}

// isolation is how the helper is started: in new PID and mount namespaces (flags), and then in a user namespace
// that maps the caller's own ids (user) when the caller may not create the others itself.
type isolation struct {
	flags uintptr
	user  bool
}

// namespaces finds, once per process, the strongest isolation this kernel and this user may set up for the
// helper: new PID and mount namespaces in which it can mount its own /proc. None: the helper is a subreaper
// instead.
var namespaces = sync.OnceValue(func() isolation {
	return firstIsolation(probeArg, syscall.CLONE_NEWPID|syscall.CLONE_NEWNS)
})

// firstIsolation starts the helper with arg (a probe, which exits 0 where its namespaces work) in new namespaces
// of flags: as root, as it is first, then inside a user namespace of its own; it returns the first way that
// works, or none (flags 0) where neither does or this binary cannot be the helper (RunHelperIfAsked). Every
// namespace the sandbox uses is found this one way.
func firstIsolation(arg string, flags uintptr) isolation {
	if !hooked.Load() {
		return isolation{}
	}
	self, err := os.Executable()
	if err != nil {
		return isolation{}
	}
	candidates := []isolation{{flags: flags | syscall.CLONE_NEWUSER, user: true}}
	if os.Geteuid() == 0 {
		candidates = append([]isolation{{flags: flags}}, candidates...)
	}
	for _, c := range candidates {
		cmd := exec.Command(self, arg)
		cmd.Env = []string{}
		cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
		c.apply(cmd.SysProcAttr)
		if Run(cmd) == nil {
			return c
		}
	}
	return isolation{}
}

// apply sets the clone flags, and for a user namespace the id mappings and the two capabilities the helper needs
// in it (to mount /proc, to drop the bounding set before the command starts, and to bring loopback up in a network
// namespace).
func (c isolation) apply(attr *syscall.SysProcAttr) {
	attr.Cloneflags |= c.flags
	if !c.user {
		return
	}
	uid, gid := os.Getuid(), os.Getgid()
	attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
	attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
	attr.GidMappingsEnableSetgroups = false
	attr.AmbientCaps = []uintptr{unix.CAP_SYS_ADMIN, unix.CAP_SETPCAP, unix.CAP_NET_ADMIN} // NET_ADMIN: loopback up
}

// isolate starts the helper in the namespaces Probe found, and has the kernel end it, and everything the command
// started, if Rooted dies: the init of a PID namespace by KILL, a subreaper by parentGone, on which it kills every
// descendant first.
func isolate(cmd *exec.Cmd, info Info) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = parentGone
	if info.Processes == ProcessesNamespace {
		cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
		namespaces().apply(cmd.SysProcAttr)
	}
	if info.Proxy != "" {
		// A network namespace of its own: inside the user namespace the helper already gets, or as root; else in
		// one made for it.
		if n := netNamespace(); cmd.SysProcAttr.Cloneflags&syscall.CLONE_NEWUSER != 0 || !n.user {
			cmd.SysProcAttr.Cloneflags |= syscall.CLONE_NEWNET
		} else {
			n.apply(cmd.SysProcAttr)
		}
	}
}

// Launch starts argv through the helper under p, in the namespaces Probe found (or as a subreaper when info says
// so); without Landlock, as None does. The helper ends the command's processes a grace period after TERM; the
// caller's KILL comes later, for a helper that could not. Killing the init of a PID namespace kills everything in
// it, but killing a subreaper would free what it holds: that KILL waits long enough for a helper slowed by a loaded
// machine.
func (linuxBackend) Launch(argv []string, p Policy, info Info) (Launch, error) {
	if !info.Active {
		return None{}.Launch(argv, p, info)
	}
	self, err := os.Executable()
	if err != nil {
		return Launch{}, fmt.Errorf("locating the rooted binary for the sandbox helper: %w", err)
	}
	p.Proxied = info.Proxy != "" // and where allow-list mode could not hold, the helper keeps the network off
	b, err := json.Marshal(p)
	if err != nil {
		return Launch{}, err
	}
	pidns := info.Processes == ProcessesNamespace
	info.Protection = protection(p, pidns)
	l := Launch{
		Argv: append([]string{self, HelperArg}, argv...), Env: []string{policyEnv + "=" + string(b)},
		Linger: 10 * time.Second, Info: info, Relays: true,
	}
	if p.Proxied {
		if l.Bridge, err = newBridge(); err != nil {
			return Launch{}, err
		}
	}
	l.Setup = func(cmd *exec.Cmd) {
		isolate(cmd, info)
		if l.Bridge != nil {
			l.Bridge.attach(cmd)
		}
	}
	if pidns {
		l.Linger = 500 * time.Millisecond // and a KILL to the namespace's init ends every process in it at once
	} else {
		l.Abort = parentGone // the subreaper KILLs every descendant at once, as when Rooted is gone
	}
	return l, nil
}

// Weaker trades the PID namespace for a subreaper when the namespaces cannot be had now (a limit on user
// namespaces reached): the helper keeps the command's processes together as a subreaper instead, and Info says so.
//
// In allow-list mode, the last step is the network off: without the network namespace, which could not be made
// either, the command has none, and NetworkNote says so.
func (linuxBackend) Weaker(info Info) (Info, bool) {
	switch {
	case !info.Active:
		return info, false
	case info.Processes == ProcessesNamespace:
		info.Processes = ProcessesSubreaper
		return info, true
	case info.Proxy != "":
		info.Proxy = ""
		info.NetworkNote = "allow-list mode needs a network namespace of its own for the command, which could not be made now (a limit on namespaces reached): the command had no network instead"
		return info, true
	}
	return info, false
}
