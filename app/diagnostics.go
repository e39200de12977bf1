package app

import (
	"context"
	"encoding/json"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/rooted-dev/rooted/backend/diagnostics"
	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/tool"
	"github.com/rooted-dev/rooted/backend/tools"
	"github.com/rooted-dev/rooted/backend/workspace"
)

// Diagnostics runs the project's check after the agent's edits, in the sandbox, as exec_shell runs commands, and
// returns the problems the edits are answerable for.
type Diagnostics struct {
	set   *workspace.Set
	store *settings.Store // nil without a config directory

	mu     sync.Mutex
	before map[string][]diagnostics.Problem // the last run's problems, by project and command
}

// DiagnosticsResult is what the checks found after an edit.
type DiagnosticsResult struct {
	// Checks are the commands run ("go -C . vet ."); none when the project has no check for these files.
	Checks []string `json:"checks"`
	// Problems are "file:line: message", in or caused by the changed files.
	Problems []string `json:"problems"`
	// Error says why a check could not run or finish (not on the allowlist, timed out).
	Error string `json:"error"`
}

// checkTimeout time-boxes each check: the first go vet of a project builds its dependencies into the project's
// own cache.
const checkTimeout = 2 * time.Minute

// After runs project ws's check for the changed files (root-relative paths, as edits report them).
func (d *Diagnostics) After(ws string, paths []string) DiagnosticsResult {
	res := DiagnosticsResult{Checks: []string{}, Problems: []string{}}
	w, err := d.set.Get(ws)
	if err != nil {
		return res
	}
	info, err := w.Session().Info()
	if err != nil {
		return res
	}
	var proj settings.Project
	if d.store != nil {
		proj, _ = d.store.Project(info.Root)
	}
	if proj.Diagnostics == "off" {
		return res
	}
	t, err := w.Session().Resolve(info.Root)
	if err != nil {
		return res
	}
	exists := func(rel string) bool {
		_, err := t.Root.Stat(rel)
		return err == nil
	}
	var changed []string
	for _, p := range paths {
		if p = path.Clean(strings.TrimPrefix(p, "./")); p != "." && !strings.HasPrefix(p, "../") && !path.IsAbs(p) {
			changed = append(changed, p)
		}
	}
	checks := diagnostics.Detect(changed, info.CwdRel, exists)
	if custom := strings.TrimSpace(proj.Diagnostics); custom != "" {
		checks = []diagnostics.Check{{Name: custom, Argv: []string{custom}, Base: info.CwdRel}}
	}
	timeout := checkTimeout
	if max := proj.MaxTimeout(); timeout > max {
		timeout = max
	}
	for _, c := range checks {
		res.Checks = append(res.Checks, strings.Join(c.Argv, " "))
		args := map[string]any{"command": c.Argv[0], "args": c.Argv[1:], "timeout_ms": timeout.Milliseconds(), "backup": false}
		if len(c.Argv) == 1 {
			args = map[string]any{"command": c.Argv[0], "timeout_ms": timeout.Milliseconds(), "backup": false}
		}
		raw, _ := json.Marshal(args)
		out, e := w.Registry().Call(tools.Foreground(context.Background()), "exec_shell", raw)
		if e != nil {
			res.Error = strings.TrimSpace(res.Error + " " + c.Name + ": " + e.Message)
			continue
		}
		var r struct {
			Stdout, Stderr string
			TimedOut       bool `json:"timed_out"`
		}
		_ = json.Unmarshal(out, &r)
		if r.TimedOut {
			res.Error = strings.TrimSpace(res.Error + " " + c.Name + " did not finish in " + timeout.String())
		}
		found := diagnostics.Parse(r.Stdout+"\n"+r.Stderr, c.Base)
		if found == nil {
			found = []diagnostics.Problem{} // a clean run is a baseline too: every later problem elsewhere is new
		}
		key := info.Root + "\x00" + strings.Join(c.Argv, "\x00")
		d.mu.Lock()
		before, seen := d.before[key]
		if d.before == nil {
			d.before = map[string][]diagnostics.Problem{}
		}
		d.before[key] = found
		d.mu.Unlock()
		if !seen {
			before = nil
		}
		for _, p := range diagnostics.Filter(found, changed, before) {
			res.Problems = append(res.Problems, p.String())
		}
	}
	return res
}

// Mode is project ws's diagnostics setting: "" (found for the files changed), "off", or a command line.
func (d *Diagnostics) Mode(ws string) (string, error) {
	w, err := open(d.set, ws)
	if err != nil {
		return "", err
	}
	if d.store == nil {
		return "", reject(tool.Errorf(tool.CodeInternal, "no config directory to keep settings in"))
	}
	p, err := d.store.Project(w.Root())
	if err != nil {
		return "", reject(tool.Errorf(tool.CodeInternal, "reading settings: %v", err))
	}
	return p.Diagnostics, nil
}

// SetMode changes it.
func (d *Diagnostics) SetMode(ws, mode string) (string, error) {
	w, err := open(d.set, ws)
	if err != nil {
		return "", err
	}
	if d.store == nil {
		return "", reject(tool.Errorf(tool.CodeInternal, "no config directory to keep settings in"))
	}
	mode = strings.TrimSpace(mode)
	if mode == "auto" {
		mode = ""
	}
	err = d.store.UpdateProject(w.Root(), func(p *settings.Project) error {
		p.Diagnostics = mode
		return nil
	})
	if err != nil {
		return "", reject(tool.Errorf(tool.CodeInternal, "saving settings: %v", err))
	}
	return mode, nil
}
