//go:build linux

package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// The helper's first stage outlives the command: it is the init of the command's PID namespace, or, where the
// kernel allows no namespace, a child subreaper that every orphaned descendant is handed to. As a subreaper it
// stays outside the command's Landlock domain (so that the command can neither signal nor trace it) and starts the
// second stage; as init it confines itself and starts the command, since nothing the command does to it lets a
// process out of the namespace. When the command ends, on its own or
// by a timeout, the helper kills every process the command left, detached (setsid, double fork) or not, and
// returns only once they are all gone: nothing the command started runs after its result, nor during the checks
// that follow it.

func reaper(argv []string) int {
	runtime.LockOSThread() // Pdeathsig is per thread: the command's is tied to this one, which lives as long as we do
	cloexecFrom(3)
	var p Policy
	if err := json.Unmarshal([]byte(os.Getenv(policyEnv)), &p); err != nil {
		fmt.Fprintln(os.Stderr, "rooted sandbox: bad policy:", err)
		return 126
	}
	pidns := os.Getpid() == 1
	if pidns {
		err := ownProc()
		if err == nil {
			err = reenterCwd()
		}
		if err == nil {
			err = pin(p.Pinned)
		}
		if err == nil {
			err = bindReadOnly(p.ReadOnly)
		}
		if err == nil {
			err = bindCopies(p.Substitutes) // after ReadOnly: a folder bound later would hide them
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "rooted sandbox:", err)
			return 126
		}
	} else if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		fmt.Fprintln(os.Stderr, "rooted sandbox: becoming a subreaper:", err)
		return 126
	}
	if p.Proxied {
		// Before anything is confined: the listener is made, and handed over, with the helper's own rights.
		if err := serveBridge(); err != nil {
			fmt.Fprintln(os.Stderr, "rooted sandbox:", err)
			return 126
		}
	}
	files := []uintptr{0, 1, 2}
	if !p.Stdin {
		null, err := os.Open(os.DevNull)
		if err != nil {
			fmt.Fprintln(os.Stderr, "rooted sandbox:", err)
			return 126
		}
		defer null.Close() // and open until the command has started
		files[0] = null.Fd()
	}
	for i := range p.Files {
		files = append(files, uintptr(3+i))
	}
	// A TERM is passed on from this thread, the one the command is started from: as the init of a PID namespace
	// the helper is confined, each thread in a Landlock domain of its own, and the signal scope lets only this
	// thread's domain reach the command's processes. parentGone is handled beside it (it ends the helper).
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	gone := make(chan os.Signal, 1)
	signal.Notify(gone, parentGone)
	path, args := "/proc/self/exe", append([]string{os.Args[0], confineArg}, argv...)
	if pidns {
		// The init of the command's own namespace confines itself and starts the command directly, one exec fewer
		// than the second stage costs. Inside the domain the command can signal it, but the kernel delivers to a
		// namespace's init only the signals it handles, and whatever ends it ends every process in the namespace.
		os.Unsetenv(policyEnv)
		var code int
		if path, code = confineSelf(p, argv[0]); code != 0 {
			return code
		}
		args = argv
	}
	pid, err := syscall.ForkExec(path, args, &syscall.ProcAttr{
		Env: os.Environ(), Files: files, Sys: &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL},
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "rooted sandbox: starting the command:", err)
		return 126
	}
	grace := time.Duration(p.GraceMS) * time.Millisecond
	if grace <= 0 {
		grace = 2 * time.Second
	}
	// ended: the command was KILLed as a whole (parentGone); its status is that, whoever reaps it first.
	var ended atomic.Bool
	go func() {
		<-gone
		// Rooted is gone, or ends the command at once: nothing may run on unwatched. KILL to every descendant,
		// now (as a PID namespace's init, its own end ends them all).
		ended.Store(true)
		endAll(pidns)
		os.Exit(128 + int(syscall.SIGKILL))
	}()
	// The command's processes are reaped beside this thread, which stays free to pass signals on.
	type waited struct {
		pid int
		ws  syscall.WaitStatus
		err error
	}
	exited := make(chan waited)
	go func() {
		for {
			var ws syscall.WaitStatus
			wpid, err := syscall.Wait4(-1, &ws, 0, nil)
			if errors.Is(err, syscall.EINTR) {
				continue
			}
			exited <- waited{wpid, ws, err}
			if err != nil || wpid == pid {
				return
			}
		}
	}()
	// killAt is when the grace the first TERM gave ends: the command's time is up, TERM to all, then KILL to what
	// is left after the grace period. Rooted TERMs the helper alone (Launch.Relays), so the grace is counted
	// before any of the command's processes sees the TERM.
	var killAt time.Time
	var kill <-chan time.Time
	status := 0
wait:
	for {
		select {
		case <-sigs:
			if killAt.IsZero() {
				killAt = time.Now().Add(grace)
				kill = time.After(grace)
			}
			signalAll(pidns, syscall.SIGTERM)
		case <-kill:
			signalAll(pidns, syscall.SIGKILL)
		case w := <-exited:
			if w.err != nil {
				break wait
			}
			if w.pid == pid {
				status = w.ws.ExitStatus()
				if w.ws.Signaled() {
					status = 128 + int(w.ws.Signal())
				}
				break wait
			}
		}
	}
	// After a TERM the program may end before the processes it started are done with theirs (saving, removing
	// their lock files): they keep the rest of the grace, as they would have had the program lived on.
	if !killAt.IsZero() && !ended.Load() {
		reapUntil(killAt)
	}
	endAll(pidns)
	if ended.Load() {
		status = 128 + int(syscall.SIGKILL)
	}
	return status
}

// parentGone is the signal the kernel sends a subreaper helper when the thread of Rooted that started it ends
// (Rooted killed, even with KILL): the helper then kills every process the command started before it goes, where
// a KILL to the helper itself would hand them to init, alive. The init of a PID namespace gets KILL instead, which
// ends every process in its namespace.
const parentGone = syscall.SIGUSR1

// ownProc gives the helper's mount namespace a /proc of its PID namespace, after keeping its mounts from
// propagating back to the system's.
func ownProc() error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("making the sandbox's mounts private: %w", err)
	}
	if err := unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("mounting the sandbox's /proc: %w", err)
	}
	return nil
}

// reenterCwd moves into the working directory as this mount namespace sees it. Rooted starts the helper in the
// directory it holds open (/proc/self/fd/N, so that a folder swapped for a link is not entered), which the kernel
// resolves after the helper got its own mount namespace: the working directory is then on the caller's mounts,
// where getcwd fails. The same path names it here; that it is the same directory is checked.
func reenterCwd() error {
	before, err := os.Stat(".")
	if err != nil {
		return fmt.Errorf("the working directory: %w", err)
	}
	path, err := os.Readlink("/proc/self/cwd")
	if err != nil {
		return fmt.Errorf("the working directory: %w", err)
	}
	path = strings.TrimPrefix(path, "(unreachable)")
	if err := unix.Chdir(path); err != nil {
		return fmt.Errorf("the working directory: %w", err)
	}
	if after, err := os.Stat("."); err != nil || !os.SameFile(before, after) {
		return fmt.Errorf("the working directory %s changed as the command started", path)
	}
	return nil
}

// endAll kills every process left and reaps them, until the helper has no child: in a PID namespace every orphan
// is the helper's child, and as a subreaper every descendant becomes one once its parent is gone.
func endAll(pidns bool) {
	for {
		signalAll(pidns, syscall.SIGKILL)
		reaped := false
		for {
			wpid, err := syscall.Wait4(-1, nil, syscall.WNOHANG, nil)
			if errors.Is(err, syscall.ECHILD) {
				return
			}
			if wpid <= 0 {
				break
			}
			reaped = true
		}
		if !reaped {
			time.Sleep(time.Millisecond)
		}
	}
}

// reapUntil reaps the command's processes as they end, until none is left or the deadline passes.
func reapUntil(deadline time.Time) {
	for time.Now().Before(deadline) {
		wpid, err := syscall.Wait4(-1, nil, syscall.WNOHANG, nil)
		switch {
		case errors.Is(err, syscall.ECHILD):
			return
		case wpid > 0 || errors.Is(err, syscall.EINTR):
		default:
			time.Sleep(5 * time.Millisecond)
		}
	}
}

// signalAll sends sig to every process the command started: the whole PID namespace, or every descendant.
func signalAll(pidns bool, sig syscall.Signal) {
	if pidns {
		_ = syscall.Kill(-1, sig) // everyone in the namespace but its init
		return
	}
	for _, pid := range descendants(os.Getpid()) {
		_ = syscall.Kill(pid, sig)
	}
}

// descendants lists the processes below root, from each process's parent in /proc.
func descendants(root int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	children := map[int][]int{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold anything, so read after its closing parenthesis.
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) < 2 {
			continue
		}
		if ppid, err := strconv.Atoi(f[1]); err == nil {
			children[ppid] = append(children[ppid], pid)
		}
	}
	var out []int
	queue := children[root]
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		out = append(out, pid)
		queue = append(queue, children[pid]...)
	}
	return out
}

// cloexecFrom marks every descriptor from fd on close-on-exec: whatever Rooted inherited and passed on (a
// terminal, a socket) does not reach the command. Descriptors the command is given are passed explicitly.
func cloexecFrom(fd int) {
	if unix.CloseRange(uint(fd), math.MaxUint32, unix.CLOSE_RANGE_CLOEXEC) == nil {
		return
	}
	entries, _ := os.ReadDir("/proc/self/fd")
	for _, e := range entries {
		if n, err := strconv.Atoi(e.Name()); err == nil && n >= fd {
			unix.CloseOnExec(n)
		}
	}
}
