//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// newBridge makes the socket pair: the parent's end for Rooted, the child's for the helper.
func newBridge() (*Bridge, error) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("the proxy's socket pair: %w", err)
	}
	pf := os.NewFile(uintptr(fds[0]), "proxy bridge")
	defer pf.Close()
	c, err := net.FileConn(pf)
	if err != nil {
		unix.Close(fds[1])
		return nil, err
	}
	return &Bridge{parent: c.(*net.UnixConn), child: os.NewFile(uintptr(fds[1]), "proxy bridge (helper)")}, nil
}

// Listener waits, up to timeout, for the listener the helper made, once the process has started. The caller
// serves the command's connections on it and closes it when the command has ended.
func (b *Bridge) Listener(timeout time.Duration) (net.Listener, error) {
	defer b.Close() // the helper has its own copy of the child's end: when it ends without sending, the read ends
	b.child.Close()
	if err := b.parent.SetReadDeadline(time.Now().Add(timeout)); err != nil {
		return nil, err
	}
	buf, oob := make([]byte, 1), make([]byte, unix.CmsgSpace(4))
	_, oobn, _, _, err := b.parent.ReadMsgUnix(buf, oob)
	if err != nil {
		return nil, fmt.Errorf("the sandbox helper did not hand over the proxy's listener: %w", err)
	}
	msgs, err := unix.ParseSocketControlMessage(oob[:oobn])
	if err != nil || len(msgs) != 1 {
		return nil, errors.New("the sandbox helper did not hand over the proxy's listener")
	}
	fds, err := unix.ParseUnixRights(&msgs[0])
	if err != nil || len(fds) != 1 {
		return nil, errors.New("the sandbox helper did not hand over the proxy's listener")
	}
	f := os.NewFile(uintptr(fds[0]), "proxy listener")
	defer f.Close()
	return net.FileListener(f)
}

// attach gives cmd the child's end as its next extra descriptor and tells the helper which one it is.
func (b *Bridge) attach(cmdFiles *[]*os.File, env *[]string) error {
	ino, err := netnsInode("/proc/self/ns/net")
	if err != nil {
		return err
	}
	*cmdFiles = append(*cmdFiles, b.child)
	*env = append(*env, fmt.Sprintf("%s=%d:%d", bridgeEnv, 2+len(*cmdFiles), ino))
	return nil
}

// netnsInode identifies a network namespace.
func netnsInode(path string) (uint64, error) {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		return 0, fmt.Errorf("the network namespace: %w", err)
	}
	return st.Ino, nil
}

// serveBridge runs in the helper before anything is confined: in the command's new network namespace it brings
// loopback up, listens on ProxyAddr and sends the listener to Rooted, keeping no copy. It refuses to listen in
// Rooted's own namespace, which would expose the proxy to every process of the machine.
func serveBridge() error {
	spec := os.Getenv(bridgeEnv)
	os.Unsetenv(bridgeEnv)
	fdText, inoText, ok := strings.Cut(spec, ":")
	fd, err1 := strconv.Atoi(fdText)
	rooted, err2 := strconv.ParseUint(inoText, 10, 64)
	if !ok || err1 != nil || err2 != nil {
		return errors.New("allow-list mode without a bridge to Rooted")
	}
	defer unix.Close(fd)
	own, err := netnsInode("/proc/self/ns/net")
	if err != nil {
		return err
	}
	if own == rooted {
		return errors.New("allow-list mode needs a network namespace of its own, and the command has none")
	}
	ln, err := loopbackListener()
	if err != nil {
		return err
	}
	defer unix.Close(ln)
	if err := unix.Sendmsg(fd, []byte{0}, unix.UnixRights(ln), nil, 0); err != nil {
		return fmt.Errorf("handing the proxy's listener to Rooted: %w", err)
	}
	return nil
}

// loopbackListener brings this network namespace's loopback up and listens on ProxyAddr in it.
func loopbackListener() (int, error) {
	s, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return -1, fmt.Errorf("loopback: %w", err)
	}
	defer unix.Close(s)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return -1, err
	}
	if err := unix.IoctlIfreq(s, unix.SIOCGIFFLAGS, ifr); err != nil {
		return -1, fmt.Errorf("loopback: %w", err)
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	if err := unix.IoctlIfreq(s, unix.SIOCSIFFLAGS, ifr); err != nil {
		return -1, fmt.Errorf("bringing loopback up: %w", err)
	}
	ln, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return -1, fmt.Errorf("the proxy's listener: %w", err)
	}
	if err := unix.Bind(ln, &unix.SockaddrInet4{Port: ProxyPort, Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		unix.Close(ln)
		return -1, fmt.Errorf("the proxy's listener on %s: %w", ProxyAddr, err)
	}
	if err := unix.Listen(ln, 128); err != nil {
		unix.Close(ln)
		return -1, fmt.Errorf("the proxy's listener: %w", err)
	}
	return ln, nil
}

// netProbe is the check that a network namespace can be made here: the helper started in one brings loopback up
// and listens in it.
func netProbe() int {
	ln, err := loopbackListener()
	if err != nil {
		return 3
	}
	unix.Close(ln)
	return 0
}

// netNamespace finds, once per process, how a command may get a network namespace of its own: a new one as root,
// inside a user namespace of its own otherwise; none (flags 0) where neither can be made.
var netNamespace = sync.OnceValue(func() isolation {
	if !hooked.Load() {
		return isolation{}
	}
	self, err := os.Executable()
	if err != nil {
		return isolation{}
	}
	candidates := []isolation{{flags: syscall.CLONE_NEWNET | syscall.CLONE_NEWUSER, user: true}}
	if os.Geteuid() == 0 {
		candidates = append([]isolation{{flags: syscall.CLONE_NEWNET}}, candidates...)
	}
	for _, c := range candidates {
		cmd := exec.Command(self, netProbeArg)
		cmd.Env = []string{}
		cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
		c.apply(cmd.SysProcAttr)
		if Run(cmd) == nil {
			return c
		}
	}
	return isolation{}
})

// netProbeArg starts the helper only to see whether a network namespace can be set up here.
const netProbeArg = "__rooted_sandbox_netprobe"
