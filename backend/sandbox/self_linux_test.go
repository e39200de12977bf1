//go:build linux

package sandbox

import (
	"encoding/json"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// selfEnv hands TestConfineSelf's child the places it tries.
const selfEnv = "ROOTED_SANDBOX_TEST_SELF"

type selfPlaces struct {
	Writable, Outside, Addr string
	FilterOnly              bool // the seccomp filter alone, without Landlock or the capabilities
}

// A process that confines itself (rooted-reader) keeps what it was given, its one writable folder, and loses the
// rest: every other file, the network by any socket family, the processes around it, and root's capabilities.
// The child is this test binary, confined, trying each; it prints a line per try.
func TestConfineSelf(t *testing.T) {
	if env := os.Getenv(selfEnv); env != "" {
		confinedChild(env)
		return
	}
	t.Parallel()
	dir := t.TempDir()
	places := selfPlaces{Writable: filepath.Join(dir, "cache"), Outside: filepath.Join(dir, "outside")}
	for _, d := range []string{places.Writable, places.Outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(places.Outside, "secret"), []byte("SECRET"), 0o644); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("HELLO"))
			c.Close()
		}
	}()
	places.Addr = ln.Addr().String()
	got := runConfinedChild(t, places)
	landlock, _ := llsys.LandlockGetABIVersion()
	want := map[string]string{
		"confine":                  "ok",
		"write the cache":          "ok",
		"rename in the cache":      "ok",
		"remove in the cache":      "ok",
		"read /dev/urandom":        "ok",
		"socket pair":              "refused",
		"tcp connect":              "refused",
		"udp socket":               "refused",
		"unix socket":              "refused",
		"netlink socket":           "refused",
		"capabilities, 4 threads":  "none",
		"chmod outside":            "refused",
		"chown outside":            "refused",
		"utimes outside":           "refused",
		"setxattr outside":         "refused",
		"truncate outside":         "refused",
		"inotify outside":          "refused",
		"signal every process":     "refused",
		"signal itself":            "ok",
		"tgkill itself":            "ok",
		"ptrace the parent":        "refused",
		"read the parent's memory": "refused",
		"pidfd of the parent":      "refused",
		"exec":                     "refused",
		"new user namespace":       "refused",
		"a thread":                 "ok",
		"seal":                     "ok",
		"read the cache, sealed":   "ok",
		"tkill, sealed":            "refused",
	}
	for k, v := range filterOnlyWant {
		want[k] = v
	}
	if selfDeniesTkill() {
		want["tkill"] = "refused"
	} else {
		t.Logf("a cgo build: tkill is allowed, for libpsx")
	}
	if landlock >= 1 {
		want["read outside"] = "refused"
		want["write outside"] = "refused"
		want["list outside"] = "refused"
		want["read /etc/passwd"] = "refused"
		want["open /dev/tty"] = "refused"
		want["write the cache, sealed"] = "refused"
	} else {
		t.Logf("no Landlock in this kernel: the child's files are not confined, only its sockets and capabilities")
	}
	if landlock >= 6 {
		want["signal the parent"] = "refused"
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %q, want %q", k, got[k], v)
		}
	}
	if b, err := os.ReadFile(filepath.Join(places.Writable, "kept")); err != nil || string(b) != "compiled" {
		t.Errorf("the child's write to its folder: %q, %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(places.Outside, "planted")); err == nil && landlock >= 1 {
		t.Errorf("the child wrote outside its folder")
	}
	if fi, err := os.Stat(filepath.Join(places.Outside, "secret")); err != nil || fi.Mode().Perm() != 0o644 || fi.Size() != 6 {
		t.Errorf("the file outside was changed: %v %v", fi, err)
	}
}

// What the filter alone refuses, whatever Landlock does: the rows Landlock's scopes refuse too (from ABI 6) are
// tried again in a child with the filter only, so that each holds on a kernel without them.
var filterOnlyWant = map[string]string{
	"signal the parent":        "refused",
	"signal every process":     "refused",
	"signal itself":            "ok",
	"tgkill itself":            "ok",
	"ptrace the parent":        "refused",
	"read the parent's memory": "refused",
	"pidfd of the parent":      "refused",
	"exec":                     "refused",
	"new user namespace":       "refused",
	"a thread":                 "ok",
	"fcntl F_SETOWN":           "refused",
	"limits of the parent":     "refused",
	"limits of itself":         "ok",
	"shared memory":            "refused",
	"setpriority":              "refused",
	"kernel log":               "refused",
	"socket pair":              "refused",
	"udp socket":               "refused",
}

func TestConfineSelfFilterAlone(t *testing.T) {
	t.Parallel()
	got := runConfinedChild(t, selfPlaces{FilterOnly: true})
	for k, v := range filterOnlyWant {
		if got[k] != v {
			t.Errorf("%s: %q, want %q", k, got[k], v)
		}
	}
}

// runConfinedChild runs this test binary as TestConfineSelf's child at places and returns what each try came to.
func runConfinedChild(t *testing.T, places selfPlaces) map[string]string {
	t.Helper()
	env, _ := json.Marshal(places)
	cmd := exec.Command(os.Args[0], "-test.run=^TestConfineSelf$", "-test.count=1")
	cmd.Env = append(os.Environ(), selfEnv+"="+string(env))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the confined child: %v\n%s", err, out)
	}
	got := map[string]string{}
	for _, line := range strings.Split(string(out), "\n") {
		if k, v, ok := strings.Cut(line, ": "); ok && strings.HasPrefix(k, "try ") {
			got[strings.TrimPrefix(k, "try ")] = v
		}
	}
	t.Logf("the confined child:\n%s", out)
	return got
}

// confinedChild confines itself to its places and prints what each try came to: ok, refused (an access error),
// or the unexpected error.
func confinedChild(env string) {
	var p selfPlaces
	if err := json.Unmarshal([]byte(env), &p); err != nil {
		panic(err)
	}
	say := func(what string, err error) {
		switch {
		case err == nil:
			println("try " + what + ": ok")
		case errors.Is(err, os.ErrPermission):
			println("try " + what + ": refused")
		default:
			println("try " + what + ": " + err.Error())
		}
	}
	if p.FilterOnly {
		say("filter", installFilter(filterOpts{self: uint32(os.Getpid())}))
		tryProcesses(say)
		return
	}
	err := ConfineSelf([]string{p.Writable})
	say("confine", err)
	if err != nil {
		os.Exit(0)
	}
	tmp := filepath.Join(p.Writable, "tmp")
	say("write the cache", os.WriteFile(tmp, []byte("compiled"), 0o600))
	say("rename in the cache", os.Rename(tmp, filepath.Join(p.Writable, "kept")))
	os.WriteFile(tmp, nil, 0o600)
	say("remove in the cache", os.Remove(tmp))
	f, err := os.Open("/dev/urandom")
	if err == nil {
		_, err = f.Read(make([]byte, 8))
		f.Close()
	}
	say("read /dev/urandom", err)
	_, err = os.ReadFile(filepath.Join(p.Outside, "secret"))
	say("read outside", err)
	say("write outside", os.WriteFile(filepath.Join(p.Outside, "planted"), []byte("x"), 0o644))
	_, err = os.ReadDir(p.Outside)
	say("list outside", err)
	_, err = os.ReadFile("/etc/passwd")
	say("read /etc/passwd", err)
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM, 0)
	if err == nil {
		unix.Close(fds[0])
		unix.Close(fds[1])
	}
	say("socket pair", err)
	c, err := net.DialTimeout("tcp", p.Addr, 5*time.Second)
	if err == nil {
		c.Close()
	}
	say("tcp connect", err)
	for _, s := range []struct {
		name      string
		domain, t int
	}{{"udp socket", unix.AF_INET, unix.SOCK_DGRAM}, {"unix socket", unix.AF_UNIX, unix.SOCK_STREAM}, {"netlink socket", unix.AF_NETLINK, unix.SOCK_RAW}} {
		fd, err := unix.Socket(s.domain, s.t, 0)
		if err == nil {
			unix.Close(fd)
		}
		say(s.name, err)
	}
	secret := filepath.Join(p.Outside, "secret")
	say("chmod outside", os.Chmod(secret, 0o666))
	say("chown outside", os.Chown(secret, os.Getuid(), os.Getgid()))
	say("utimes outside", os.Chtimes(secret, time.Unix(0, 0), time.Unix(0, 0)))
	say("setxattr outside", unix.Setxattr(secret, "user.rooted", []byte("x"), 0))
	say("truncate outside", os.Truncate(secret, 0))
	if fd, err := unix.InotifyInit1(unix.IN_CLOEXEC); err != nil {
		say("inotify outside", err)
	} else {
		_, err := unix.InotifyAddWatch(fd, p.Outside, unix.IN_ALL_EVENTS)
		say("inotify outside", err)
		unix.Close(fd)
	}
	_, err = os.OpenFile("/dev/tty", os.O_RDWR, 0)
	say("open /dev/tty", err)
	tryProcesses(say)
	err = SealSelf([]string{p.Writable})
	say("seal", err)
	if err == nil {
		_, err = os.ReadFile(filepath.Join(p.Writable, "kept"))
		say("read the cache, sealed", err)
		say("write the cache, sealed", os.WriteFile(filepath.Join(p.Writable, "after"), nil, 0o600))
		_, _, e := unix.Syscall(unix.SYS_TKILL, uintptr(unix.Gettid()), 0, 0)
		if e != 0 {
			say("tkill, sealed", e)
		} else {
			say("tkill, sealed", nil)
		}
	}
	// Capabilities belong to threads: each of several, some started after the confinement, holds none.
	held := make(chan bool)
	for range 4 {
		go func() {
			runtime.LockOSThread()
			hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
			var data [2]unix.CapUserData
			err := unix.Capget(&hdr, &data[0])
			held <- err != nil || data[0].Effective|data[0].Permitted|data[1].Effective|data[1].Permitted != 0
			time.Sleep(100 * time.Millisecond) // keep the thread, so the next goroutine gets another
		}()
	}
	anyHeld := false
	for range 4 {
		anyHeld = <-held || anyHeld
	}
	if anyHeld {
		println("try capabilities, 4 threads: held")
	} else {
		println("try capabilities, 4 threads: none")
	}
}

// tryProcesses tries what reaches other processes, or the kernel, past the filter.
func tryProcesses(say func(string, error)) {
	say("signal the parent", syscall.Kill(os.Getppid(), syscall.SIGURG))
	say("signal every process", syscall.Kill(-1, 0))
	say("signal itself", syscall.Kill(os.Getpid(), 0))
	say("tgkill itself", unix.Tgkill(os.Getpid(), unix.Gettid(), 0))
	if _, _, e := unix.Syscall(unix.SYS_TKILL, uintptr(unix.Gettid()), 0, 0); e != 0 {
		say("tkill", e)
	} else {
		say("tkill", nil)
	}
	say("ptrace the parent", unix.PtraceSeize(os.Getppid()))
	buf := make([]byte, 8)
	_, err := unix.ProcessVMReadv(os.Getppid(), []unix.Iovec{{Base: &buf[0], Len: 8}}, []unix.RemoteIovec{{Base: 0x400000, Len: 8}}, 0)
	say("read the parent's memory", err)
	pidfd, err := unix.PidfdOpen(os.Getppid(), 0)
	if err == nil {
		unix.Close(pidfd)
	}
	say("pidfd of the parent", err)
	say("exec", syscall.Exec("/bin/true", []string{"true"}, nil))
	say("new user namespace", unix.Unshare(unix.CLONE_NEWUSER))
	started := make(chan struct{})
	go func() { // a new thread, through clone (and, with cgo, pthread_create falling back from clone3)
		runtime.LockOSThread()
		close(started)
	}()
	<-started
	say("a thread", nil)
	_, err = unix.FcntlInt(uintptr(1), unix.F_SETOWN, os.Getppid())
	say("fcntl F_SETOWN", err)
	var lim unix.Rlimit
	say("limits of the parent", unix.Prlimit(os.Getppid(), unix.RLIMIT_CPU, nil, &lim))
	say("limits of itself", unix.Prlimit(0, unix.RLIMIT_CPU, nil, &lim))
	_, err = unix.SysvShmGet(unix.IPC_PRIVATE, 4096, unix.IPC_CREAT|0o600)
	say("shared memory", err)
	say("setpriority", unix.Setpriority(unix.PRIO_PROCESS, 0, 0))
	_, err = unix.Klogctl(10, nil) // SYSLOG_ACTION_SIZE_BUFFER
	say("kernel log", err)
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_DGRAM, 0)
	if err == nil {
		unix.Close(fds[0])
		unix.Close(fds[1])
	}
	say("socket pair", err)
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM, 0)
	if err == nil {
		unix.Close(fd)
	}
	say("udp socket", err)
}
