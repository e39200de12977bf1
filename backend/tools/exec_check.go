package tools

import (
	"fmt"
	"time"

	"github.com/rooted-dev/rooted/backend/cmdpolicy"
	"github.com/rooted-dev/rooted/backend/permissions"
	"github.com/rooted-dev/rooted/backend/session"
	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/tool"
)

// execCheck is a command that passed every check and may run.
type execCheck struct {
	argv    []string
	info    session.Info
	proj    settings.Project
	timeout time.Duration
	// chosen is whether the call gave timeout_ms; without it a command that can move to the background does so
	// rather than being stopped.
	chosen bool
}

// checkExec checks a command without running it: its words (no shell syntax), the allowlist, the project's deny
// rules, programs it would run, links it would follow, its file arguments and its timeout. Every face runs these
// checks before a command runs; the window also runs them before it asks the user (Check), so a command that
// cannot run is answered at once rather than shown for approval.
func (d Deps) checkExec(in execShellIn) (execCheck, error) {
	argv, err := in.argv()
	if err != nil {
		return execCheck{}, err
	}
	info, err := d.Session.Info()
	if err != nil {
		return execCheck{}, err
	}
	proj := d.projectSettings(info.Root)
	if err := cmdpolicy.Allowed(argv[0], proj.EffectiveAllowlist()); err != nil {
		return execCheck{}, &tool.Error{
			Code: tool.CodeNotAllowed, Field: "command", Message: err.Error(),
			Details: map[string]any{"allowlist": proj.EffectiveAllowlist()},
		}
	}
	if dec := permissions.DecideCommand(argv, proj.Rules, cmdpolicy.Split); dec.Action == permissions.Deny {
		return execCheck{}, &tool.Error{
			Code: tool.CodePermissionDenied, Field: "command",
			Message: fmt.Sprintf("%s: refused by the rule \"deny %s\" of this project (the user's settings); nothing was run, and the same command will be refused again", permissions.Join(argv), ruleText(dec.Rule)),
			Details: map[string]any{"rule": dec.Rule},
		}
	}
	if why := cmdpolicy.RunsPrograms(argv); why != "" {
		return execCheck{}, &tool.Error{
			Code: tool.CodeInvalidArgument, Field: "command",
			Message: why + ": refused, as the programs it would run are not on the allowlist; nothing was run",
		}
	}
	if opt := cmdpolicy.FollowsLinks(argv); opt != "" {
		return execCheck{}, &tool.Error{
			Code: tool.CodeInvalidArgument, Field: "command",
			Message: fmt.Sprintf("%s %s follows symbolic links, which can lead outside the project; leave it out (grep -r, find without -L), nothing was run", argv[0], opt),
		}
	}
	for _, p := range cmdpolicy.PathArgs(argv) {
		if err := d.insideRoot(p); err != nil {
			e := Classify(err)
			if e.Code == tool.CodeOutsideRoot {
				e.Message = fmt.Sprintf("outside the project root: %s names %s; file arguments must stay inside the project, nothing was run", argv[0], p)
				e.Path = p
			}
			return execCheck{}, e
		}
	}
	for _, p := range cmdpolicy.ChangedPaths(argv) {
		if why := d.holdsGitData(p); why != "" {
			return execCheck{}, &tool.Error{
				Code: tool.CodePermissionDenied, Path: p,
				Message: fmt.Sprintf("%s names %s, %s: a repository's history cannot be restored from a snapshot, so commands may not remove, move or overwrite it; nothing was run", argv[0], p, why),
			}
		}
	}
	timeout := settings.DefaultTimeout
	if in.TimeoutMS > 0 {
		timeout = time.Duration(in.TimeoutMS) * time.Millisecond
	}
	if max := proj.MaxTimeout(); timeout > max {
		return execCheck{}, &tool.Error{
			Code: tool.CodeInvalidArgument, Field: "timeout_ms",
			Message: fmt.Sprintf("timeout_ms must be at most %d (this project's maximum)", max.Milliseconds()),
		}
	}
	return execCheck{argv: argv, info: info, proj: proj, timeout: timeout, chosen: in.TimeoutMS > 0}, nil
}

// timeoutWith is the command's timeout where commands still running after after move to the background (0:
// never), in a session that has jobs or not. A timeout the call chose holds; the default is for one-shot calls,
// which cannot move a command to the background: where it can move, it moves there instead of being stopped (a cold
// first go test takes longer than 30 s), and only the project's maximum stops it before.
func (c execCheck) timeoutWith(after time.Duration, jobs bool) time.Duration {
	if c.chosen || !jobs || after <= 0 {
		return c.timeout
	}
	return c.proj.MaxTimeout()
}

// ruleText is a rule as Settings shows it.
func ruleText(r *permissions.Rule) string {
	if r == nil {
		return ""
	}
	if r.Command == "" {
		return r.Tool
	}
	return r.Command
}
