package tools

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/rooted-dev/rooted/backend/cmdpolicy"
	"github.com/rooted-dev/rooted/backend/permissions"
	"github.com/rooted-dev/rooted/backend/tool"
)

// CheckResult is what a call would meet, found without running it.
type CheckResult struct {
	// Error is the error the call would be answered with at once: it cannot run as it is.
	Error *tool.Error `json:"error,omitempty"`
	// Decision is what the project's rules (and Rooted's defaults for commands) say about running it.
	Decision permissions.Decision `json:"decision"`
	// Suggest, for a command, is the prefix "Always allow" would add as a rule (go test, npm run build).
	Suggest string `json:"suggest,omitempty"`
	// Grant, for a command, is the program "allow for this session" may cover; "" when a grant of the whole
	// program would allow any code (node, python3, bash, env: permissions.ProgramGrant).
	Grant string `json:"grant,omitempty"`
}

// Check runs a call's validation without running it: the schema, and for a command everything exec_shell checks
// first (shell syntax, the allowlist, deny rules, file arguments, the timeout); for other tools, that the paths
// they name are inside the project. The window asks the user only about a call that passed.
func (d Deps) Check(reg *tool.Registry, name string, args []byte) CheckResult {
	t, ok := reg.Lookup(name)
	if !ok {
		return CheckResult{Error: tool.Errorf(tool.CodeUnknownTool, "unknown tool %q", name)}
	}
	args, e := t.Validate(args)
	if e != nil {
		return CheckResult{Error: e}
	}
	var rules []permissions.Rule
	if info, err := d.Session.Info(); err == nil {
		rules = d.projectSettings(info.Root).Rules
	}
	if name == "web_fetch" {
		return checkFetch(args, rules)
	}
	if name == "exec_shell" {
		var in execShellIn
		if err := json.Unmarshal(args, &in); err != nil {
			return CheckResult{Error: tool.Errorf(tool.CodeInvalidArgument, "arguments: %v", err)}
		}
		c, err := d.checkExec(in)
		var te *tool.Error
		if errors.As(err, &te) {
			return CheckResult{Error: te}
		}
		if err != nil {
			return CheckResult{Error: Classify(err)}
		}
		return CheckResult{Decision: permissions.DecideCommand(c.argv, rules, cmdpolicy.Split), Suggest: permissions.Suggest(c.argv), Grant: permissions.ProgramGrant(c.argv)}
	}
	if strings.HasPrefix(name, permissions.MCPPrefix) {
		// Another server's tool: its "path" is its own business (the sandbox bounds what it reaches); the rules
		// decide, and nothing of it reads as safe to run unasked.
		return decideTool(name, rules)
	}
	var fields struct {
		Path  *string  `json:"path"`
		Paths []string `json:"paths"`
	}
	_ = json.Unmarshal(args, &fields) // the schema was checked; a tool without these fields leaves them empty
	paths := fields.Paths
	if fields.Path != nil {
		paths = append(paths, *fields.Path)
	}
	for _, p := range paths {
		if err := d.insideRoot(p); err != nil {
			if e := Classify(err); e.Code == tool.CodeOutsideRoot {
				return CheckResult{Error: e}
			}
		}
	}
	return decideTool(name, rules)
}

// decideTool is what the rules say about a call of a tool other than exec_shell and web_fetch.
func decideTool(name string, rules []permissions.Rule) CheckResult {
	dec := permissions.DecideTool(name, rules)
	if dec.Action == permissions.Deny {
		return CheckResult{Decision: dec, Error: denied(name, dec.Rule)}
	}
	return CheckResult{Decision: dec}
}

// denied is the error of a call a deny rule refuses.
func denied(name string, r *permissions.Rule) *tool.Error {
	return &tool.Error{
		Code:    tool.CodePermissionDenied,
		Message: name + ": refused by the rule \"deny " + ruleText(r) + "\" of this project (the user's settings); nothing was run",
		Details: map[string]any{"rule": r},
	}
}

// Denied is the error for a call of name that a deny rule of the open project refuses, or nil. exec_shell's
// command rules are applied by the tool itself; this is for the rules that name a whole tool, and the registry
// applies it to every call (Registry), whichever face makes it.
func (d Deps) Denied(name string) *tool.Error {
	info, err := d.Session.Info()
	if err != nil {
		return nil
	}
	if dec := permissions.DecideTool(name, d.projectSettings(info.Root).Rules); dec.Action == permissions.Deny {
		return denied(name, dec.Rule)
	}
	return nil
}
