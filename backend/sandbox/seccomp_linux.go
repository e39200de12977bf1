//go:build linux

package sandbox

import (
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The seccomp filter is installed for every command. With the network off, Landlock (ABI 4 and later) stops TCP
// connects and binds, and its scopes (ABI 6) abstract unix sockets and signals; it has no word on UDP, raw sockets,
// or (before ABI 9) connecting to a unix socket file (a docker socket, the session bus, an ssh agent). The filter
// closes those: socket() is refused for every family but netlink (which programs use to list interfaces, not to
// talk to anyone); with the network on, IP sockets are allowed too, and in allow-list mode, where the command's
// network namespace holds only loopback and Landlock lets it connect to the proxy's port alone. Unix sockets are allowed where Landlock decides
// which files they may connect to (ABI 9), or where the user named a socket; else refused, with the network on as
// off. Socket pairs stay: a program talks to its own children over them. io_uring, whose operations create and
// connect sockets without a system call a filter can see, is refused, and on x86-64 so are 32-bit system calls'
// socket entry points and the x32 ABI. TIOCSTI and TIOCLINUX, which push input into a terminal, are refused
// whatever descriptor they name.

const (
	auditArchX86_64  = 0xC000003E
	auditArchI386    = 0x40000003
	auditArchAarch64 = 0xC00000B7

	retAllow = unix.SECCOMP_RET_ALLOW
	retDeny  = unix.SECCOMP_RET_ERRNO | uint32(unix.EACCES)
	retNoSys = unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)

	offNr   = 0
	offArch = 4
	offArg0 = 16 // the low half of args[0] (little-endian)
	offArg1 = 24

	i386Socketcall   = 102
	i386Socket       = 359
	i386IoUringSetup = 425
	i386Ioctl        = 54
)

// bpf assembles a filter with forward jumps to labels.
type bpf struct {
	code   []unix.SockFilter
	fixups []fixup
	labels map[string]int
}

type fixup struct {
	at     int
	jt, jf string // labels, or "" for the next instruction
}

func (b *bpf) label(name string) { b.labels[name] = len(b.code) }

func (b *bpf) load(off uint32) {
	b.code = append(b.code, unix.SockFilter{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: off})
}

func (b *bpf) ret(v uint32) {
	b.code = append(b.code, unix.SockFilter{Code: unix.BPF_RET | unix.BPF_K, K: v})
}

// jump: if A op k goto jt else goto jf ("" is the next instruction).
func (b *bpf) jump(op uint16, k uint32, jt, jf string) {
	b.fixups = append(b.fixups, fixup{at: len(b.code), jt: jt, jf: jf})
	b.code = append(b.code, unix.SockFilter{Code: unix.BPF_JMP | op | unix.BPF_K, K: k})
}

func (b *bpf) assemble() ([]unix.SockFilter, error) {
	for _, f := range b.fixups {
		for _, side := range []struct {
			name string
			set  func(uint8)
		}{{f.jt, func(v uint8) { b.code[f.at].Jt = v }}, {f.jf, func(v uint8) { b.code[f.at].Jf = v }}} {
			if side.name == "" {
				continue
			}
			to, ok := b.labels[side.name]
			if !ok || to <= f.at || to-f.at-1 > 255 {
				return nil, fmt.Errorf("seccomp: bad jump to %q", side.name)
			}
			side.set(uint8(to - f.at - 1))
		}
	}
	return b.code, nil
}

// filterOpts are the socket families the filter lets a process create, besides socket pairs.
type filterOpts struct {
	inet bool // AF_INET and AF_INET6
	unix bool // AF_UNIX
	// self is the PID of a process confining itself (ConfineSelf), which the filter holds to a parser's needs:
	// no socket but a pair (netlink neither), no 32-bit system calls, none of selfDenied (what changes a file
	// without opening it for writing, which Landlock governs; ptrace and the other ways into a process; exec), and
	// signals to itself alone (Landlock's scope does that from ABI 6 only).
	self uint32
}

// filterFor is the filter for p under Landlock ABI abi.
func filterFor(p Policy, abi int) filterOpts {
	return filterOpts{inet: p.Network || p.Proxied, unix: abi >= resolveUnixABI || len(p.Sockets) > 0}
}

// networkFilter is the filter for arch (GOARCH); nil when there is none for it.
func networkFilter(arch string, o filterOpts) ([]unix.SockFilter, error) {
	b := &bpf{labels: map[string]int{}}
	switch arch {
	case "amd64":
		b.load(offArch)
		if o.self != 0 {
			b.jump(unix.BPF_JEQ, auditArchX86_64, "", "deny")
		} else {
			b.jump(unix.BPF_JEQ, auditArchX86_64, "", "i386")
		}
		b.load(offNr)
		b.jump(unix.BPF_JGE, 0x40000000, "deny", "") // the x32 ABI
		b.jump(unix.BPF_JEQ, unix.SYS_SOCKET, "domain", "")
		b.jump(unix.BPF_JEQ, unix.SYS_IO_URING_SETUP, "deny", "")
		b.jump(unix.BPF_JEQ, unix.SYS_IOCTL, "ioctl", "rest")
		if o.self != 0 {
			break
		}
		b.label("i386")
		b.jump(unix.BPF_JEQ, auditArchI386, "", "deny")
		b.load(offNr)
		b.jump(unix.BPF_JEQ, i386Socketcall, "deny", "") // every socket operation of old 32-bit programs
		b.jump(unix.BPF_JEQ, i386Socket, "domain", "")
		b.jump(unix.BPF_JEQ, i386IoUringSetup, "deny", "")
		b.jump(unix.BPF_JEQ, i386Ioctl, "ioctl", "allow")
	case "arm64":
		b.load(offArch)
		b.jump(unix.BPF_JEQ, auditArchAarch64, "", "deny")
		b.load(offNr)
		b.jump(unix.BPF_JEQ, unix.SYS_SOCKET, "domain", "")
		b.jump(unix.BPF_JEQ, unix.SYS_IO_URING_SETUP, "deny", "")
		b.jump(unix.BPF_JEQ, unix.SYS_IOCTL, "ioctl", "rest")
	default:
		return nil, nil
	}
	b.label("rest")
	if o.self != 0 {
		for _, nr := range selfDenied {
			b.jump(unix.BPF_JEQ, nr, "deny", "")
		}
		if selfDeniesTkill() {
			b.jump(unix.BPF_JEQ, unix.SYS_TKILL, "deny", "")
		}
		for _, nr := range selfSignals {
			b.jump(unix.BPF_JEQ, nr, "own", "")
		}
		b.jump(unix.BPF_JEQ, unix.SYS_PRLIMIT64, "limits", "")
		b.jump(unix.BPF_JEQ, unix.SYS_FCNTL, "fcntl", "")
		b.jump(unix.BPF_JEQ, unix.SYS_CLONE3, "nosys", "")
		b.jump(unix.BPF_JEQ, unix.SYS_CLONE, "clone", "allow")
		b.label("limits") // 0 is the caller itself
		b.load(offArg0)
		b.jump(unix.BPF_JEQ, 0, "allow", "own")
		b.label("own") // the target (pid or tgid, the first argument) is this process
		b.load(offArg0)
		b.jump(unix.BPF_JEQ, o.self, "allow", "deny")
		b.label("fcntl")
		b.load(offArg1)
		for _, cmd := range selfOwnFcntl {
			b.jump(unix.BPF_JEQ, cmd, "deny", "")
		}
		b.ret(retAllow)
		b.label("clone") // the flags are the first argument on both architectures, all in its low half
		b.load(offArg0)
		b.jump(unix.BPF_JSET, unix.CLONE_THREAD, "", "deny")
		b.jump(unix.BPF_JSET, selfCloneFlags, "deny", "allow")
		b.label("nosys")
		b.ret(retNoSys)
	}
	b.ret(retAllow)
	b.label("ioctl")
	b.load(offArg1) // the request is an unsigned int: its low half is all of it
	if o.self != 0 {
		for _, req := range selfOwnIoctl {
			b.jump(unix.BPF_JEQ, req, "deny", "")
		}
	}
	b.jump(unix.BPF_JEQ, unix.TIOCSTI, "deny", "")
	b.jump(unix.BPF_JEQ, unix.TIOCLINUX, "deny", "allow")
	b.label("domain")
	b.load(offArg0)
	if o.self == 0 {
		b.jump(unix.BPF_JEQ, unix.AF_NETLINK, "allow", "")
	}
	if o.inet {
		b.jump(unix.BPF_JEQ, unix.AF_INET, "allow", "")
		b.jump(unix.BPF_JEQ, unix.AF_INET6, "allow", "")
	}
	if o.unix {
		b.jump(unix.BPF_JEQ, unix.AF_UNIX, "allow", "")
	}
	b.label("deny")
	b.ret(retDeny)
	b.label("allow")
	b.ret(retAllow)
	return b.assemble()
}

// installTkillFilter adds a filter that refuses tkill, on every thread (ConfineSelf's own allowed it to libpsx).
func installTkillFilter() error {
	b := &bpf{labels: map[string]int{}}
	b.load(offNr)
	b.jump(unix.BPF_JEQ, unix.SYS_TKILL, "deny", "")
	b.ret(retAllow)
	b.label("deny")
	b.ret(retDeny)
	code, err := b.assemble()
	if err != nil {
		return err
	}
	return loadFilter(code)
}

// installFilter installs the filter on every thread of this process (the helper), which the command inherits
// through exec. It needs no_new_privs, which Landlock has already set.
func installFilter(o filterOpts) error {
	code, err := networkFilter(runtime.GOARCH, o)
	if err != nil || code == nil {
		return err
	}
	return loadFilter(code)
}

// loadFilter installs code on every thread of this process.
func loadFilter(code []unix.SockFilter) error {
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %w", err)
	}
	prog := unix.SockFprog{Len: uint16(len(code)), Filter: &code[0]}
	_, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC, uintptr(unsafe.Pointer(&prog)))
	runtime.KeepAlive(code)
	if errno != 0 {
		return fmt.Errorf("installing the seccomp filter: %w", errno)
	}
	return nil
}
