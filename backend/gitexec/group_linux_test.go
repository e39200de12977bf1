package gitexec

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/sandbox"
)

// procState is a process's state letter from /proc (T: stopped), or "" once it is gone.
func procState(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return ""
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 || i+2 >= len(s) {
		return ""
	}
	return s[i+2 : i+3]
}

// isGit says whether process pid runs git now (its command name, which exec sets).
func isGit(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
	return err == nil && strings.TrimSpace(string(b)) == "git"
}

// groupPids lists the live processes of a process group (zombies left out).
func groupPids(group int) []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if pg, err := syscall.Getpgid(pid); err == nil && pg == group && procState(pid) != "Z" && procState(pid) != "" {
			pids = append(pids, pid)
		}
	}
	return pids
}

// startBlocked starts a sandboxed git in a group of its own, as Run does for WhileRunning, blocked reading its
// stdin (the returned pipe), and waits until the group holds the helper and git. Git itself, not the child the
// helper is about to turn into git: the helper starts it as Go does (vfork), waiting uninterruptibly until its child
// has become git, so a group stopped before that holds a helper that cannot stop (D) until the child is continued.
func startBlocked(t *testing.T) (cmd *exec.Cmd, stdin io.WriteCloser, out *strings.Builder) {
	t.Helper()
	dir := t.TempDir()
	c := Cmd{Dir: dir, Write: []string{dir}}
	cmd, err := c.Command(context.Background(), "hash-object", "--stdin")
	if err != nil {
		t.Fatal(err)
	}
	if !ownGroup(cmd) {
		t.Fatal("no process group of its own")
	}
	stdin, err = cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out = &strings.Builder{}
	cmd.Stdout = out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(20 * time.Second); !slices.ContainsFunc(groupPids(cmd.Process.Pid), isGit); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the group never held the helper and git: %v", groupPids(cmd.Process.Pid))
		}
	}
	return cmd, stdin, out
}

// Background work pauses a sandboxed git by stopping its group: the helper and git stop together, git does
// nothing while stopped (its input already there), and continued, it finishes its work.
func TestStoppingTheGroupStopsGit(t *testing.T) {
	t.Parallel()
	if !Sandboxed() {
		t.Skip("no OS sandbox here: " + sandbox.Probe(sandbox.Policy{}).Reason)
	}
	cmd, stdin, out := startBlocked(t)
	group := cmd.Process.Pid
	if group == syscall.Getpgrp() {
		t.Fatal("git shares the test's process group")
	}
	StopGroup(group)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		pids := groupPids(group)
		stopped := len(pids) >= 2 && !slices.ContainsFunc(pids, func(p int) bool { return procState(p) != "T" })
		if stopped {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("not every process of the group stopped: %v", pids)
		}
	}
	io.WriteString(stdin, "hello\n")
	stdin.Close()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		t.Fatalf("git ran while its group was stopped: %v %q", err, out)
	case <-time.After(300 * time.Millisecond):
	}
	ContinueGroup(group)
	if err := <-exited; err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(out.String()); got != "ce013625030ba8dba906f756967f9e9ca394464a" {
		t.Fatalf("git's output once continued: %q", got)
	}
}

// A Rooted killed while its background git is stopped leaves nothing behind: the helper and git die with it,
// stopped or not (they hold the snapshot repository's lock, which the next session needs).
func TestStoppedGitDiesWithRooted(t *testing.T) {
	t.Parallel()
	if !Sandboxed() {
		t.Skip("no OS sandbox here: " + sandbox.Probe(sandbox.Policy{}).Reason)
	}
	dir := t.TempDir()
	pidsFile := filepath.Join(dir, "pids")
	child := exec.Command(os.Args[0], "-test.run=^TestStoppedGitDiesWithRootedChild$")
	// The child kills itself before its own clean-up: its temporary folders go inside this test's.
	child.Env = append(os.Environ(), "ROOTED_GROUP_CHILD="+pidsFile, "TMPDIR="+dir)
	out, _ := child.CombinedOutput() // it kills itself
	b, err := os.ReadFile(pidsFile)
	if err != nil {
		t.Fatalf("the child wrote no pids: %v\n%s", err, out)
	}
	var pids []int
	for _, f := range strings.Fields(string(b)) {
		p, _ := strconv.Atoi(f)
		pids = append(pids, p)
	}
	if len(pids) < 2 {
		t.Fatalf("the child saw %v", pids)
	}
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		alive := slices.DeleteFunc(slices.Clone(pids), func(p int) bool { s := procState(p); return s == "" || s == "Z" })
		if len(alive) == 0 {
			break
		}
		if time.Now().After(deadline) {
			for _, p := range alive {
				syscall.Kill(p, syscall.SIGKILL)
			}
			t.Fatalf("stopped git processes outlived the process that started them: %v", alive)
		}
	}
}

// TestStoppedGitDiesWithRootedChild is the Rooted of TestStoppedGitDiesWithRooted: it starts a git, stops its
// group, notes the group's processes and kills itself.
func TestStoppedGitDiesWithRootedChild(t *testing.T) {
	file := os.Getenv("ROOTED_GROUP_CHILD")
	if file == "" {
		t.Skip("run by TestStoppedGitDiesWithRooted")
	}
	cmd, _, _ := startBlocked(t)
	StopGroup(cmd.Process.Pid)
	var list []string
	for _, p := range groupPids(cmd.Process.Pid) {
		list = append(list, strconv.Itoa(p))
	}
	if err := os.WriteFile(file, []byte(strings.Join(list, " ")), 0o644); err != nil {
		t.Fatal(err)
	}
	syscall.Kill(os.Getpid(), syscall.SIGKILL)
}

// Run hands WhileRunning the group of a sandboxed git and calls what it returns once git has ended; an
// unsandboxed git (ObjectsOnly) is never handed over: stopped, it would outlive a killed Rooted.
func TestRunHandsOverOnlySandboxedGroups(t *testing.T) {
	t.Parallel()
	if !Sandboxed() {
		t.Skip("no OS sandbox here: " + sandbox.Probe(sandbox.Policy{}).Reason)
	}
	dir := t.TempDir()
	var calls, ends int
	c := Cmd{Dir: dir, Write: []string{dir}, WhileRunning: func(group int) func() {
		calls++
		if group == syscall.Getpgrp() || len(groupPids(group)) == 0 {
			t.Errorf("handed group %d: the test's own, or empty", group)
		}
		return func() { ends++ }
	}}
	if _, err := c.Run(context.Background(), nil, "init", "-q", dir); err != nil {
		t.Fatal(err)
	}
	if calls != 1 || ends != 1 {
		t.Errorf("sandboxed git: WhileRunning called %d times, its end %d; want once each", calls, ends)
	}
	c.ObjectsOnly = true
	if _, err := c.Run(context.Background(), nil, "rev-parse", "--git-dir"); err != nil {
		t.Fatal(err)
	}
	if calls != 1 {
		t.Errorf("an unsandboxed git was handed over (%d calls)", calls)
	}
}
