package tools

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/jobs"
	"github.com/rooted-dev/rooted/backend/permissions"
	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/tool"
)

// jobDeps opens a project whose settings are p, with background jobs, as the window has them.
func jobDeps(t *testing.T, p settings.Project, layout ...string) (Deps, string) {
	t.Helper()
	d, root := projectDeps(t, p, layout...)
	d.Jobs = &jobs.Manager{}
	t.Cleanup(d.Jobs.Close)
	return d, root
}

type bgOut struct {
	ExitCode  int    `json:"exit_code"`
	TimedOut  bool   `json:"timed_out"`
	Stdout    string `json:"stdout"`
	Hint      string `json:"hint"`
	DurationM int64  `json:"duration_ms"`
	Job       *struct {
		ID      string `json:"id"`
		Running bool   `json:"running"`
		Next    int64  `json:"next"`
	} `json:"job"`
}

type jobOut struct {
	ID       string `json:"id"`
	Running  bool   `json:"running"`
	ExitCode *int   `json:"exit_code"`
	Output   string `json:"output"`
	Next     int64  `json:"next"`
	Killed   bool   `json:"killed"`
}

func TestBackgroundJob(t *testing.T) {
	d, _ := jobDeps(t, settings.Project{Allowlist: []string{"sh"}})
	reg := Registry(d)
	start := time.Now()
	out, e := call[bgOut](t, reg, "exec_shell", `{"command": "sh -c 'echo ready; sleep 600'", "background": true}`)
	if e != nil || out.Job == nil || out.Job.ID == "" {
		t.Fatalf("start: %+v, %v", out, e)
	}
	if time.Since(start) > 30*time.Second {
		t.Fatal("a background command did not return at once")
	}
	if !strings.Contains(out.Hint, "job_output") || !strings.Contains(out.Hint, "cannot listen") {
		t.Errorf("hint: %s", out.Hint)
	}
	id := out.Job.ID
	o, e := call[jobOut](t, reg, "job_output", `{"id": "`+id+`", "wait_ms": 20000}`)
	if e != nil || o.Output != "ready\n" || !o.Running || o.Next != 6 {
		t.Fatalf("job_output: %+v, %v", o, e)
	}
	// Nothing new: an empty output from the same offset, still running.
	o, _ = call[jobOut](t, reg, "job_output", `{"id": "`+id+`", "since": 6, "wait_ms": 100}`)
	if o.Output != "" || !o.Running {
		t.Errorf("nothing new: %+v", o)
	}
	k, e := call[struct {
		jobOut
		WasRunning bool `json:"was_running"`
	}](t, reg, "job_kill", `{"id": "`+id+`"}`)
	if e != nil || !k.WasRunning || k.Running || !k.Killed || k.ExitCode == nil {
		t.Fatalf("job_kill: %+v, %v", k, e)
	}
	if _, e := call[jobOut](t, reg, "job_output", `{"id": "job-99"}`); e == nil || e.Code != tool.CodeNotFound {
		t.Errorf("unknown job: %v", e)
	}
	// A job ends when its project closes: the session opens another.
	out, _ = call[bgOut](t, reg, "exec_shell", `{"command": "sh -c 'sleep 600'", "background": true}`)
	j, err := d.Jobs.Get(mustRoot(t, d), out.Job.ID)
	if err != nil {
		t.Fatal(err)
	}
	_, other := makeLayout(t, []string{"x.txt"})
	info, err := d.Session.SetRoot(other)
	if err != nil {
		t.Fatal(err)
	}
	d.Prepare(info, nil)
	select {
	case <-j.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the job outlived its project")
	}
}

func mustRoot(t *testing.T, d Deps) string {
	info, err := d.Session.Info()
	if err != nil {
		t.Fatal(err)
	}
	return info.Root
}

func TestLongCommandMovesToBackground(t *testing.T) {
	d, _ := jobDeps(t, settings.Project{Allowlist: []string{"sh", "sleep"}, BackgroundAfterSec: 1})
	reg := Registry(d)
	out, e := call[bgOut](t, reg, "exec_shell", `{"command": "sh -c 'echo one; sleep 2; echo two; exit 3'", "timeout_ms": 60000}`)
	if e != nil || out.Job == nil || !strings.Contains(out.Hint, "moved to the background") {
		t.Fatalf("moved: %+v, %v", out, e)
	}
	var o jobOut
	next := out.Job.Next
	// What the result held and what job_output reads on from its offset is the whole output, once.
	var rest strings.Builder
	rest.WriteString(out.Stdout)
	for i := 0; i < 100; i++ {
		o, e = call[jobOut](t, reg, "job_output", `{"id": "`+out.Job.ID+`", "since": `+itoa(next)+`, "wait_ms": 5000}`)
		if e != nil {
			t.Fatal(e)
		}
		rest.WriteString(o.Output)
		next = o.Next
		if !o.Running {
			break
		}
	}
	if rest.String() != "one\ntwo\n" || o.ExitCode == nil || *o.ExitCode != 3 {
		t.Errorf("after moving: %q, %+v", rest.String(), o)
	}
	// A command that ends before the background time is an ordinary result, and no job.
	if err := d.Settings.UpdateProject(mustRoot(t, d), func(p *settings.Project) error { p.BackgroundAfterSec = 30; return nil }); err != nil {
		t.Fatal(err)
	}
	out, e = call[bgOut](t, reg, "exec_shell", `{"command": "sh -c 'echo quick; exit 4'", "timeout_ms": 60000}`)
	if e != nil || out.Job != nil || out.ExitCode != 4 || out.Stdout != "quick\n" {
		t.Errorf("quick: %+v, %v", out, e)
	}
	// Its timeout still stops a command when it comes before the background time.
	out, e = call[bgOut](t, reg, "exec_shell", `{"command": "sleep 30", "timeout_ms": 500}`)
	if e != nil || out.Job != nil || !out.TimedOut {
		t.Errorf("timeout: %+v, %v", out, e)
	}
	if l := d.Jobs.List(mustRoot(t, d)); len(l) != 1 {
		t.Errorf("jobs listed: %+v (only the one moved to the background)", l)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func TestDenyRuleRefusesEverywhere(t *testing.T) {
	d, _ := jobDeps(t, settings.Project{Rules: []permissions.Rule{{Action: permissions.Deny, Tool: "exec_shell", Command: "ls -l"}}}, "a.txt")
	reg := Registry(d)
	for _, cmd := range []string{`{"command": "ls -l"}`, `{"command": "ls  '-l' a.txt"}`, `{"command": "ls", "args": ["-l", "."]}`} {
		if _, e := call[bgOut](t, reg, "exec_shell", cmd); e == nil || e.Code != tool.CodePermissionDenied || !strings.Contains(e.Message, `deny ls -l`) {
			t.Errorf("%s: %v", cmd, e)
		}
	}
	if out, e := call[bgOut](t, reg, "exec_shell", `{"command": "ls"}`); e != nil || out.Stdout != "a.txt\n" {
		t.Errorf("ls: %+v, %v", out, e)
	}
}

// A rule that denies a whole tool holds on every face: the registry refuses the call before it runs, so the CLI
// (which calls the registry directly) obeys it as MCP and the window do.
func TestToolDenyRuleInRegistry(t *testing.T) {
	d, dir := jobDeps(t, settings.Project{Rules: []permissions.Rule{{Action: permissions.Deny, Tool: "write_file"}}}, "a.txt")
	reg := Registry(d)
	if _, e := reg.Call(context.Background(), "write_file", []byte(`{"path": "b.txt", "content": "x"}`)); e == nil || e.Code != tool.CodePermissionDenied {
		t.Errorf("write_file under a deny rule: %v", e)
	}
	if _, err := os.Lstat(filepath.Join(dir, "b.txt")); !os.IsNotExist(err) {
		t.Errorf("the refused call wrote its file: %v", err)
	}
	if _, e := reg.Call(context.Background(), "read_file", []byte(`{"path": "a.txt"}`)); e != nil {
		t.Errorf("read_file has no rule: %v", e)
	}
}

func TestCheck(t *testing.T) {
	d, _ := jobDeps(t, settings.Project{Rules: []permissions.Rule{{Action: permissions.Allow, Tool: "exec_shell", Command: "git"}, {Action: permissions.Deny, Tool: "restore_snapshot"}}}, "a.txt")
	reg := Registry(d)
	for _, c := range []struct {
		name, args string
		code       string
		action     permissions.Action
		sensitive  bool
		suggest    string
		grant      string
	}{
		{"exec_shell", `{"command": "ls | wc -l"}`, tool.CodeInvalidArgument, "", false, "", ""},
		{"exec_shell", `{"command": "curl x"}`, tool.CodeNotAllowed, "", false, "", ""},
		{"exec_shell", `{"command": "ls /etc"}`, tool.CodeOutsideRoot, "", false, "", ""},
		{"exec_shell", `{"comand": "ls"}`, tool.CodeInvalidArgument, "", false, "", ""},
		{"exec_shell", `{"command": "go test ./..."}`, "", permissions.Ask, false, "go test", "go"},
		{"exec_shell", `{"command": "git status"}`, "", permissions.Allow, false, "git status", "git"},
		{"exec_shell", `{"command": "git push origin main"}`, "", permissions.Ask, true, "git push", "git"},
		{"exec_shell", `{"command": "git add ."}`, "", permissions.Allow, false, "git add", "git"},
		// An interpreter is never granted or always-allowed whole: node -e asks every time, a script may be named.
		{"exec_shell", `{"command": "node -e \"require('fs').rmSync('x')\""}`, "", permissions.Ask, true, "", ""},
		{"exec_shell", `{"command": "node scripts/gen.js --out x"}`, "", permissions.Ask, false, "node scripts/gen.js", ""},
		{"exec_shell", `{"command": "python3 -c 'print(1)'"}`, "", permissions.Ask, true, "", ""},
		{"write_file", `{"path": "../x", "content": "x"}`, tool.CodeOutsideRoot, "", false, "", ""},
		{"write_file", `{"path": "b.txt", "content": "x"}`, "", "", false, "", ""},
		{"restore_snapshot", `{"id": "abc"}`, tool.CodePermissionDenied, permissions.Deny, false, "", ""},
	} {
		r := d.Check(reg, c.name, []byte(c.args))
		code := ""
		if r.Error != nil {
			code = r.Error.Code
		}
		if code != c.code || r.Decision.Action != c.action || r.Decision.Sensitive != c.sensitive || r.Suggest != c.suggest || r.Grant != c.grant {
			t.Errorf("Check %s %s = %+v (error %+v); want code %q action %q sensitive %v suggest %q grant %q", c.name, c.args, r, r.Error, c.code, c.action, c.sensitive, c.suggest, c.grant)
		}
	}
}

// Without timeout_ms, a command where commands move to the background is not stopped at the one-shot default
// (30 s) before its move (a minute by default): the two agree, so a cold first go test moves rather than dies.
func TestDefaultTimeoutLeavesRoomToMove(t *testing.T) {
	p := settings.Project{}
	for _, c := range []struct {
		name   string
		check  execCheck
		after  time.Duration
		jobs   bool
		stopAt time.Duration
	}{
		{"no timeout_ms, jobs, default move", execCheck{proj: p, timeout: settings.DefaultTimeout}, p.BackgroundAfter(), true, settings.DefaultMaxTimeout},
		{"timeout_ms chosen", execCheck{proj: p, timeout: 5 * time.Second, chosen: true}, p.BackgroundAfter(), true, 5 * time.Second},
		{"one-shot call, no jobs", execCheck{proj: p, timeout: settings.DefaultTimeout}, p.BackgroundAfter(), false, settings.DefaultTimeout},
		{"never moves", execCheck{proj: p, timeout: settings.DefaultTimeout}, 0, true, settings.DefaultTimeout},
	} {
		got := c.check.timeoutWith(c.after, c.jobs)
		if got != c.stopAt {
			t.Errorf("%s: stopped after %v, want %v", c.name, got, c.stopAt)
		}
		if c.jobs && c.after > 0 && !c.check.chosen && got <= c.after {
			t.Errorf("%s: stopped after %v, before its move at %v", c.name, got, c.after)
		}
	}
}
