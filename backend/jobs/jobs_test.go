//go:build unix

package jobs

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/shell"
)

// command runs a real program as exec_shell does (through shell.Run, its own process group), without a sandbox.
func command(argv ...string) Run {
	return func(ctx context.Context, live func(string, []byte)) (shell.Result, string, error) {
		res, err := shell.Run(ctx, shell.Spec{Argv: argv, Dir: os.TempDir(), Live: live, Grace: 500 * time.Millisecond})
		return res, "", err
	}
}

func TestJobLifecycle(t *testing.T) {
	m := &Manager{}
	defer m.Close()
	j, err := m.Start("/p", "sh -c ...", command("sh", "-c", "echo one; sleep 0.3; echo two; exit 3"), true, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The first read waits for output rather than answering empty at once.
	o := j.Read(context.Background(), 0, 5*time.Second)
	if !strings.HasPrefix(o.Output, "one\n") {
		t.Fatalf("first read: %+v", o)
	}
	// Reading on from Next gives only what is new, and the exit code once the job ended.
	var all strings.Builder
	all.WriteString(o.Output)
	next := o.Next
	for o.Running {
		o = j.Read(context.Background(), next, 5*time.Second)
		all.WriteString(o.Output)
		next = o.Next
	}
	if all.String() != "one\ntwo\n" || o.ExitCode == nil || *o.ExitCode != 3 || o.Killed {
		t.Fatalf("output %q, end %+v", all.String(), o.Info)
	}
	if again := j.Read(context.Background(), next, time.Second); again.Output != "" || again.Next != next {
		t.Errorf("read past the end: %+v", again)
	}
	if list := m.List("/p"); len(list) != 1 || list[0].ID != j.ID() || list[0].Running {
		t.Errorf("list: %+v", list)
	}
	if len(m.List("/other")) != 0 {
		t.Error("another project lists this project's job")
	}
	if _, err := m.Get("/other", j.ID()); !errors.Is(err, ErrNotFound) {
		t.Errorf("another project reads this project's job: %v", err)
	}
}

// pidsOf starts a job whose shell writes its own pid and a child's to a file, and returns them once written.
func startTree(t *testing.T, m *Manager, root string) (*Job, []int) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "pids")
	j, err := m.Start(root, "server", command("sh", "-c", `sleep 600 & echo $$ $! > `+file+`; wait`), true, nil)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		b, _ := os.ReadFile(file)
		if f := strings.Fields(string(b)); len(f) == 2 {
			var pids []int
			for _, s := range f {
				n, _ := strconv.Atoi(s)
				pids = append(pids, n)
			}
			return j, pids
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("the job did not start")
	return nil, nil
}

// alive says whether pid still runs a while after it was killed: a signal takes effect a moment after it is sent,
// so a process that is still there is given up to 5 s to go.
func alive(pid int) bool {
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if !running(pid) {
			return false
		}
	}
	return true
}

func running(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	// A zombie is dead; only its parent has not asked.
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	return err == nil && !strings.Contains(string(b), ") Z ")
}

func TestKillEndsTheWholeTree(t *testing.T) {
	m := &Manager{}
	defer m.Close()
	j, pids := startTree(t, m, "/p")
	if !j.Kill() {
		t.Error("Kill says the job was not running")
	}
	for _, pid := range pids {
		if alive(pid) {
			t.Errorf("process %d outlived job_kill", pid)
		}
	}
	info := j.Info()
	if info.Running || !info.Killed || info.ExitCode == nil {
		t.Errorf("after kill: %+v", info)
	}
	if j.Kill() {
		t.Error("a second Kill says the job was running")
	}
}

func TestClosingTheProjectEndsItsJobs(t *testing.T) {
	m := &Manager{}
	defer m.Close()
	_, a := startTree(t, m, "/a")
	_, b := startTree(t, m, "/b")
	m.CloseRoot("/b") // /a closes, /b stays open
	for _, pid := range a {
		if alive(pid) {
			t.Errorf("process %d of the closed project still runs", pid)
		}
	}
	if len(m.List("/a")) != 0 {
		t.Error("the closed project's jobs are still listed")
	}
	for _, pid := range b {
		if !running(pid) {
			t.Errorf("process %d of the open project was stopped", pid)
		}
	}
	m.Close() // the app exits
	for _, pid := range b {
		if alive(pid) {
			t.Errorf("process %d outlived Close", pid)
		}
	}
	if _, err := m.Start("/b", "x", command("true"), true, nil); !errors.Is(err, ErrClosed) {
		t.Errorf("started after Close: %v", err)
	}
}

func TestLimits(t *testing.T) {
	m := &Manager{MaxRunning: 2, OutputCap: 1000}
	defer m.Close()
	for range 2 {
		if _, err := m.Start("/p", "sleep", command("sleep", "600"), true, nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := m.Start("/p", "sleep", command("sleep", "600"), true, nil); !errors.Is(err, ErrTooMany) {
		t.Fatalf("a third job: %v", err)
	}
	m.CloseRoot("")
	// 5000 bytes written: the last 1000 are kept, and a reader from 0 learns that 4000 were dropped.
	j, err := m.Start("/p", "yes", command("sh", "-c", "head -c 5000 /dev/zero | tr '\\0' x"), true, nil)
	if err != nil {
		t.Fatal(err)
	}
	<-j.Done()
	o := j.Read(context.Background(), 0, 0)
	if len(o.Output) != 1000 || o.Dropped != 4000 || o.Next != 5000 || o.Bytes != 5000 {
		t.Errorf("capped output: %d bytes, dropped %d, next %d, total %d", len(o.Output), o.Dropped, o.Next, o.Bytes)
	}
}

func TestForwardUntilDetached(t *testing.T) {
	m := &Manager{}
	defer m.Close()
	got := make(chan string, 10)
	j, err := m.Start("/p", "x", command("sh", "-c", "echo a; sleep 0.5; echo b"), true, func(_ string, b []byte) { got <- string(b) })
	if err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "a\n" {
		t.Fatalf("forwarded %q", s)
	}
	j.Detach()
	<-j.Done()
	select {
	case s := <-got:
		t.Errorf("forwarded %q after Detach", s)
	default:
	}
}

// The window follows listed jobs by what they report: a job's output and its start and end are heard, with the
// project and id; a command still in the foreground reports no output until it is promoted to a job.
func TestReportsOutputAndChanges(t *testing.T) {
	type heard struct{ root, id string }
	outputs := make(chan heard, 64)
	changes := make(chan Info, 64)
	m := &Manager{OnOutput: func(root, id string) { outputs <- heard{root, id} }, OnChange: func(i Info) { changes <- i }}
	defer m.Close()

	j, err := m.Start("/p", "x", command("sh", "-c", "echo a; sleep 0.2; echo b"), true, nil)
	if err != nil {
		t.Fatal(err)
	}
	<-j.Done()
	var got []heard
	for len(outputs) > 0 {
		got = append(got, <-outputs)
	}
	if len(got) < 1 || got[0] != (heard{"/p", j.ID()}) {
		t.Fatalf("output reports %+v", got)
	}
	deadline := time.After(5 * time.Second)
	var running, ended bool
	for !running || !ended {
		select {
		case i := <-changes:
			running = running || (i.ID == j.ID() && i.Running)
			ended = ended || (i.ID == j.ID() && !i.Running)
		case <-deadline:
			t.Fatalf("change reports: started %v, ended %v", running, ended)
		}
	}

	fg, err := m.Start("/p", "y", command("sh", "-c", "echo quiet; sleep 0.3; echo promoted"), false, nil)
	if err != nil {
		t.Fatal(err)
	}
	first := fg.Read(context.Background(), 0, 5*time.Second)
	if first.Output != "quiet\n" {
		t.Fatalf("foreground read %+v", first)
	}
	if len(outputs) != 0 {
		t.Fatalf("a foreground command reported output: %+v", <-outputs)
	}
	fg.Promote()
	<-fg.Done()
	select {
	case h := <-outputs:
		if h.id != fg.ID() {
			t.Errorf("promoted job reported as %+v", h)
		}
	case <-time.After(5 * time.Second):
		t.Error("a promoted job's output was not reported")
	}
}
