//go:build linux

package shell

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/cmdenv"
)

// processModes are the ways the helper keeps a command's processes together: its own PID namespace where this
// kernel and user may have one, and the subreaper every machine has. Each test runs in both.
func processModes(t *testing.T, network bool) map[string]sandboxEnv {
	t.Helper()
	e := newSandbox(t, network)
	if !e.info.Active {
		t.Fatalf("no sandbox on this Linux machine: %s", e.info.Reason)
	}
	modes := map[string]sandboxEnv{}
	if e.info.Processes == "pid namespace" {
		modes["pid namespace"] = e
	} else {
		t.Logf("no PID namespace here (%s): the subreaper alone is tested", e.info.Processes)
	}
	sub := newSandbox(t, network)
	sub.info.Processes = "subreaper"
	modes["subreaper"] = sub
	return modes
}

// survivors lists the processes anywhere on the machine whose command line holds token.
func survivors(token string) []string {
	var out []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err == nil && strings.Contains(string(b), token) {
			if pid, _ := strconv.Atoi(e.Name()); alive(pid) {
				out = append(out, e.Name()+": "+strings.ReplaceAll(string(b), "\x00", " "))
			}
		}
	}
	return out
}

// Every process a command starts ends before its result returns: a detached child (setsid, node's
// spawn({detached: true}).unref(), a double fork, one that ignores TERM) that would write a marker a second later
// is gone when Run returns, and the marker never appears.
func TestNothingOutlivesTheCommand(t *testing.T) {
	t.Parallel()
	for mode, e := range processModes(t, false) {
		for _, c := range []struct {
			name    string
			argv    func(payload string) []string
			timeout time.Duration
		}{
			{"setsid", func(p string) []string { return []string{"sh", "-c", "setsid sh -c '" + p + "' & echo started"} }, 0},
			{"node detached unref", func(p string) []string {
				return []string{"node", "-e", "require('child_process').spawn('sh', ['-c', process.argv[1]], {detached: true, stdio: 'ignore'}).unref(); console.log('started')", p}
			}, 0},
			{"double fork", func(p string) []string { return []string{"sh", "-c", "(sh -c '" + p + "' &); echo started"} }, 0},
			{"ignores TERM and HUP", func(p string) []string {
				return []string{"sh", "-c", "(trap '' TERM HUP; setsid sh -c \"trap '' TERM HUP; " + p + "\" &); echo started"}
			}, 0},
			{"the command times out", func(p string) []string {
				return []string{"sh", "-c", "setsid sh -c '" + p + "' & echo started; sleep 60"}
			}, 5 * time.Second},
		} {
			t.Run(mode+"/"+c.name, func(t *testing.T) {
				t.Parallel()
				// The payload sleeps for a unique time, by which it is found among all processes.
				token := fmt.Sprintf("%d.%09d", 1+int(c.timeout.Seconds()), rand.IntN(1e9)) // past the timeout, if any
				marker := filepath.Join(e.project, "marker-"+token)
				payload := "sleep " + token + "; echo escaped > " + marker
				res, err := Run(context.Background(), Spec{
					Argv: c.argv(payload), Dir: e.project, Env: cmdenv.Env(os.Environ(), nil, "HOME="+e.outside, "TMPDIR="+e.tmp),
					Timeout: cmp(c.timeout, 20*time.Second), Grace: 200 * time.Millisecond, Policy: e.policy, Sandbox: e.info,
				})
				if err != nil || !strings.Contains(res.Stdout, "started") {
					t.Fatalf("%+v, %v", res, err)
				}
				if c.timeout > 0 && !res.TimedOut {
					t.Errorf("the command did not time out: %+v", res)
				}
				if _, err := os.Stat(marker); err == nil {
					t.Fatal("the payload finished before the command did: it proves nothing")
				}
				if s := survivors(token); len(s) > 0 {
					t.Errorf("processes outlived the command: %q", s)
				}
				// Bounded wait past the payload's sleep: the marker must never appear.
				for deadline := time.Now().Add(2500 * time.Millisecond); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
					if _, err := os.Stat(marker); err == nil {
						t.Fatal("a process the command left wrote its marker after the result returned")
					}
				}
			})
		}
	}
}

func cmp(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

// A command holds no capability even when Rooted runs as root, and cannot read or signal Rooted: what it reads of
// its own status and of Rooted's /proc entry, measured from inside.
func TestCommandHoldsNoPowerOverOthers(t *testing.T) {
	t.Parallel()
	self := strconv.Itoa(os.Getpid())
	for mode, e := range processModes(t, false) {
		t.Run(mode, func(t *testing.T) { // one after the other, so that what each measured prints whole
			res := e.run(t, "sh", "-c", "grep -E '^(Cap|NoNewPrivs)' /proc/self/status; echo; cat /proc/"+self+"/environ && echo READ-ENVIRON; kill -0 "+self+" && echo SIGNALLED; ls /proc | grep -c '^[0-9]'")
			t.Logf("as uid %d, %s, measured inside:\n%s%s", os.Geteuid(), mode, res.Stdout, res.Stderr)
			status, rest, _ := strings.Cut(res.Stdout, "\n\n")
			fields := map[string]string{}
			for _, line := range strings.Split(status, "\n") {
				k, v, _ := strings.Cut(line, ":")
				fields[k] = strings.TrimSpace(v)
			}
			for _, k := range []string{"CapInh", "CapPrm", "CapEff", "CapAmb"} {
				if fields[k] != "0000000000000000" {
					t.Errorf("%s = %q, want none", k, fields[k])
				}
			}
			if fields["NoNewPrivs"] != "1" {
				t.Errorf("NoNewPrivs = %q", fields["NoNewPrivs"])
			}
			wantCaps := "none in effect"
			if os.Geteuid() == 0 || mode == "pid namespace" {
				wantCaps = "none"
			}
			if e.info.Capabilities != wantCaps && (mode == "pid namespace" || os.Geteuid() == 0) {
				t.Errorf("reported capabilities %q, want %q", e.info.Capabilities, wantCaps)
			}
			if wantCaps == "none" && fields["CapBnd"] != "0000000000000000" {
				t.Errorf("CapBnd = %q, want the bounding set emptied", fields["CapBnd"])
			}
			if strings.Contains(rest, "READ-ENVIRON") || strings.Contains(rest, "PATH=") {
				t.Errorf("the command read Rooted's environment: %q", rest)
			}
			if strings.Contains(rest, "SIGNALLED") {
				t.Error("the command could signal Rooted")
			}
			if mode == "pid namespace" {
				if n, _ := strconv.Atoi(strings.TrimSpace(rest[strings.LastIndexByte(strings.TrimSpace(rest), '\n')+1:])); n == 0 || n > 8 {
					t.Errorf("the command sees %d processes in its /proc, want only its own", n)
				}
			}
		})
	}
}

// The command gets /dev/null as input, no descriptor Rooted holds but its output pipes, and cannot push input
// into a terminal.
func TestCommandGetsNoDescriptorsOrTerminal(t *testing.T) {
	t.Parallel()
	// A descriptor Rooted inherited from whoever started it, without close-on-exec.
	fd, err := syscall.Open(os.DevNull, syscall.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fd)
	e := newSandbox(t, false)
	res := e.run(t, "python3", "-c", `
import os, fcntl, termios
print("stdin", os.readlink("/proc/self/fd/0"))
print("leaked", os.path.exists("/proc/self/fd/`+strconv.Itoa(fd)+`"))
try:
    fcntl.ioctl(1, termios.TIOCSTI, b"x")
except OSError as e:
    print("tiocsti", e.errno)
`)
	want := fmt.Sprintf("stdin /dev/null\nleaked False\ntiocsti %d\n", syscall.EACCES) // ENOTTY without the filter
	if res.Stdout != want {
		t.Errorf("got %q %q, want %q", res.Stdout, res.Stderr, want)
	}
}

// Rooted starts a command in the directory it holds open (/proc/self/fd/N), which the kernel resolves after the
// helper has its own mount namespace: the command still knows where it is (getcwd works, node and git start).
func TestCommandStartsInAHeldDirectory(t *testing.T) {
	t.Parallel()
	for mode, e := range processModes(t, false) {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			f, err := os.Open(e.project)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			res, err := Run(context.Background(), Spec{
				Argv: []string{"node", "-e", "console.log(process.cwd())"}, Dir: fmt.Sprintf("/proc/self/fd/%d", f.Fd()),
				Env: cmdenv.Env(os.Environ(), nil), Timeout: 20 * time.Second, Policy: e.policy, Sandbox: e.info,
			})
			if err != nil || res.ExitCode != 0 || strings.TrimSpace(res.Stdout) != e.project {
				t.Errorf("%+v, %v; want %s", res, err, e.project)
			}
		})
	}
}

// A command that times out is sent TERM, every process of it at once (one that left its process group too), and
// has the grace period to finish (save its work, remove its lock files) before KILL: each process here writes its
// marker on TERM, which it sees only if TERM reaches it within the grace.
func TestTimeoutTermReachesEveryProcess(t *testing.T) {
	t.Parallel()
	for mode, e := range processModes(t, false) {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			res, err := Run(context.Background(), Spec{
				Argv: []string{"sh", "-c", termTrapScript(e.project, "command")}, Dir: e.project,
				Env:     cmdenv.Env(os.Environ(), nil, "HOME="+e.outside, "TMPDIR="+e.tmp),
				Timeout: 3 * time.Second, Grace: 5 * time.Second, Policy: e.policy, Sandbox: e.info,
			})
			if err != nil || !res.TimedOut || !strings.Contains(res.Stdout, "started") {
				t.Fatalf("%+v, %v", res, err)
			}
			termSeen(t, e.project, "command")
		})
	}
}

// termTrapScript is a program whose processes each write their marker in dir on TERM and exit: itself (leader), a
// child ("child") and one that left the program's process group ("detached", by setsid: a TERM to the group does
// not reach it, only the helper's). It prints "started" once all have their trap set: a TERM before that would
// prove nothing.
func termTrapScript(dir, leader string) string {
	trap := func(name string) string {
		return "trap 'echo term > " + filepath.Join(dir, name) + "; exit 0' TERM; "
	}
	ready, readyDetached := filepath.Join(dir, "ready"), filepath.Join(dir, "ready-detached")
	return "(" + trap("child") + "touch " + ready + "; while :; do sleep 0.05; done) & " +
		"setsid sh -c \"" + trap("detached") + "touch " + readyDetached + "; while :; do sleep 0.05; done\" & " + trap(leader) +
		"while [ ! -e " + ready + " ] || [ ! -e " + readyDetached + " ]; do sleep 0.05; done; echo started; while :; do sleep 0.05; done"
}

// termSeen fails t for each process of termTrapScript that did not write its marker: it never saw TERM, or was
// killed before its trap ran.
func termSeen(t *testing.T, dir, leader string) {
	t.Helper()
	for _, name := range []string{leader, "child", "detached"} {
		if b, err := os.ReadFile(filepath.Join(dir, name)); err != nil || string(b) != "term\n" {
			t.Errorf("the %s did not see TERM within the grace: %q %v", name, b, err)
		}
	}
}
