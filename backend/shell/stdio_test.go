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
