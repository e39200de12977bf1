package app

import (
	"encoding/json"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/tool"
)

// In allow-list mode, an agent's command that reaches a host not on the list waits while the window is asked (the
// call's output carries the host): declined, the command is refused naming the host and the result says the user
// declined it; allowed, the proxy goes on to reach it (here a name that resolves nowhere, so the refusal is gone
// and the failure is the lookup's). The Run tab's commands, which no card answers, are refused at once; an answer
// no command waits for is not_found.
func TestHostAskedWhileTheCommandRuns(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("allow-list mode needs Linux's network namespaces")
	}
	svc, id, asked := hostAskServices(t, "curl")
	const host = "new.rooted-test.invalid"
	args := `{"command": "curl", "args": ["-sS", "--max-time", "20", "https://` + host + `/"]}`
	type result struct {
		ExitCode        int      `json:"exit_code"`
		Stdout          string   `json:"stdout"`
		Stderr          string   `json:"stderr"`
		Hint            string   `json:"hint"`
		NetworkRefused  []string `json:"network_refused"`
		NetworkDeclined []string `json:"network_declined"`
	}
	run := func(conversation, call string) <-chan result {
		done := make(chan result, 1)
		go func() {
			out, err := svc.Tools.RunIn(id, conversation, call, "exec_shell", args)
			var r result
			if err != nil || json.Unmarshal([]byte(out), &r) != nil {
				t.Errorf("RunIn: %s, %v", out, err)
			}
			done <- r
		}()
		return done
	}
	question := func(call string) string {
		t.Helper()
		select {
		case o := <-asked:
			if o.ID != call || o.Data != host || o.Port != 443 || o.Ask == "" || o.WaitMS != 120_000 {
				t.Fatalf("asked %+v, want %s about %s at 443 (the port curl asked for), with a token and the 120 s wait", o, call, host)
			}
			return o.Ask
		case <-time.After(60 * time.Second):
			t.Fatal("the command never asked about the host")
		}
		return ""
	}

	done := run("conv-1", "call-deny")
	denied := question("call-deny")
	if err := svc.Tools.AnswerHost(id, denied, host, false); err != nil {
		t.Fatal(err)
	}
	r := <-done
	if r.ExitCode == 0 || !slices.Equal(r.NetworkDeclined, []string{host + ":443"}) || len(r.NetworkRefused) != 0 || !strings.Contains(r.Hint, "declined "+host+":443") {
		t.Errorf("declined: %+v", r)
	}
	t.Logf("declined: %s", r.Stdout+r.Stderr)

	done = run("conv-1", "call-allow")
	if err := svc.Tools.AnswerHost(id, question("call-allow"), host, true); err != nil {
		t.Fatal(err)
	}
	r = <-done
	if len(r.NetworkDeclined) != 0 || len(r.NetworkRefused) != 0 || strings.Contains(r.Stdout+r.Stderr, "Forbidden") {
		t.Errorf("allowed: %+v", r)
	}
	t.Logf("allowed, the proxy went on: %s", r.Stdout+r.Stderr)

	r = <-run("", "call-run-tab")
	if !slices.Equal(r.NetworkRefused, []string{host}) || len(asked) != 0 {
		t.Errorf("a Run tab command: %+v (asked %d times)", r, len(asked))
	}
	if err := svc.Tools.AnswerHost(id, denied, host, true); err == nil || !strings.Contains(err.Error(), `"code":"`+tool.CodeNotFound+`"`) {
		t.Errorf("an answer no command waits for: %v", err)
	}
}

// hostAskServices opens a project in allow-list mode whose commands may run allowed (curl), and returns the
// host questions its commands put to the window. It skips where no network namespace can be made.
func hostAskServices(t *testing.T, allowed ...string) (*services, string, chan ToolOutput) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("allow-list mode needs Linux's network namespaces")
	}
	svc := openServices(t)
	if _, err := svc.Projects.Open(t.TempDir()); err != nil {
		t.Fatal(err)
	}
	id := cur(t, svc)
	p, err := svc.Settings.Save(id, ProjectSettingsInput{Allowlist: allowed, NetworkMode: "allowlist"})
	if err != nil {
		t.Fatal(err)
	}
	if p.Sandbox.Proxy == "" {
		t.Skipf("no network namespace can be made here: %s", p.Sandbox.NetNote)
	}
	asked := make(chan ToolOutput, 8)
	svc.Tools.emit = func(name string, data any) {
		if o, ok := data.(ToolOutput); ok && name == EventToolOutput && o.Stream == streamHost {
			asked <- o
		}
	}
	return svc, id, asked
}

// Always allow on a waiting card adds the project's network rule, which covers every port, as its words say: the
// command that asked goes on to the host's other ports with no second question, because a command's proxy reads
// the rules at each connection, not once at its start.
func TestAlwaysAllowReachesTheRunningCommand(t *testing.T) {
	svc, id, asked := hostAskServices(t, "curl")
	const host = "always.rooted-test.invalid"
	done := make(chan string, 1)
	go func() {
		out, err := svc.Tools.RunIn(id, "conv-1", "call-always", "exec_shell",
			`{"command": "curl", "args": ["-sS", "--max-time", "20", "https://`+host+`/", "https://`+host+`:8443/"]}`)
		if err != nil {
			t.Errorf("RunIn: %v", err)
		}
		done <- out
	}()
	var o ToolOutput
	select {
	case o = <-asked:
	case <-time.After(60 * time.Second):
		t.Fatal("the command never asked about the host")
	}
	if o.Data != host || o.Port != 443 {
		t.Fatalf("asked %+v, want %s at 443", o, host)
	}
	if _, err := svc.Permissions.AddRule(id, Rule{Action: "allow", Tool: "network", Domain: host}); err != nil {
		t.Fatal(err)
	}
	if err := svc.Tools.AnswerHost(id, o.Ask, host, true); err != nil {
		t.Fatal(err)
	}
	var r struct {
		NetworkRefused  []string `json:"network_refused"`
		NetworkDeclined []string `json:"network_declined"`
	}
	out := <-done
	if err := json.Unmarshal([]byte(out), &r); err != nil || len(r.NetworkRefused)+len(r.NetworkDeclined) != 0 {
		t.Errorf("the command after Always: %s (%v)", out, err)
	}
	select {
	case o := <-asked:
		t.Errorf("asked again, about %s:%d, after the rule for every port", o.Data, o.Port)
	default:
	}
}
