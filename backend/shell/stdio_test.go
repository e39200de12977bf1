package shell

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/cmdenv"
	"github.com/rooted-dev/rooted/backend/sandbox"
	"github.com/rooted-dev/rooted/backend/testthread"
)

// TestStartStdio: a program started for stdio talks over its pipes from inside the sandbox (what it cannot read
// stays closed to it), and Stop ends it and what it started, even when it ignores its input closing and TERM.
func TestStartStdio(t *testing.T) {
	home, project := t.TempDir(), t.TempDir()
	secret := filepath.Join(home, "secret")
	if err := os.WriteFile(secret, []byte("KEY"), 0o644); err != nil {
		t.Fatal(err)
	}
	policy := sandbox.Policy{Readable: cmdenv.Readable(home, os.Getenv), Writable: []string{project}}
	info := sandbox.Probe(policy)
	// Each line read is answered with whether the secret could be read; a child that ignores TERM is started first.
	script := `(trap '' TERM; sleep 300) & trap '' TERM; while read line; do if cat "$1" >/dev/null 2>&1; then echo "$line read"; else echo "$line closed"; fi; done; sleep 300`
	p, err := StartStdio(context.Background(), StdioSpec{Argv: []string{"sh", "-c", script, "sh", secret}, Dir: project, Env: cmdenv.Env(os.Environ(), nil), Policy: policy, Sandbox: info, Grace: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Stdin.Write([]byte("ping\n")); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(p.Stdout).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	want := "ping read"
	if info.Active {
		want = "ping closed"
	}
	if strings.TrimSpace(line) != want {
		t.Errorf("answer %q, want %q (sandbox %+v)", line, want, info)
	}
	stopped := make(chan struct{})
	go func() { p.Stop(); close(stopped) }()
	select {
	case <-stopped:
	case <-time.After(30 * time.Second):
		t.Fatal("Stop did not end a program that ignores TERM")
	}
	select {
	case <-p.Done():
	default:
		t.Error("Done is open after Stop")
	}
}

// A program started for stdio (another MCP server) lives on when the thread that started it ends, as Go ends a
// thread whose locked goroutine returns: the sandbox's parent-death signal is for Rooted's end, not a thread's.
func TestStdioOutlivesTheThreadThatStartedIt(t *testing.T) {
	project := t.TempDir()
	policy := sandbox.Policy{Readable: cmdenv.Readable(t.TempDir(), os.Getenv), Writable: []string{project}}
	info := sandbox.Probe(policy)
	type started struct {
		p   *Stdio
		err error
	}
	ch := make(chan started)
	go func() {
		testthread.LockOffMain() // this thread ends when the goroutine returns
		p, err := StartStdio(context.Background(), StdioSpec{Argv: []string{"sh", "-c", "sleep 0.5; echo lived"}, Dir: project, Env: cmdenv.Env(os.Environ(), nil), Policy: policy, Sandbox: info, Grace: 200 * time.Millisecond})
		ch <- started{p, err}
	}()
	s := <-ch
	if s.err != nil {
		t.Fatal(s.err)
	}
	line, _ := bufio.NewReader(s.p.Stdout).ReadString('\n')
	if line != "lived\n" {
		t.Errorf("the program read %q and ended: %v (sandbox %s)", line, s.p.Err(), info.Processes)
	}
	s.p.Stop()
}
