package app

import (
	"slices"

	"github.com/rooted-dev/rooted/backend/cmdpolicy"
	"github.com/rooted-dev/rooted/backend/permissions"
	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/tool"
	"github.com/rooted-dev/rooted/backend/workspace"
)

// Permissions serves each open project's permission rules, and checks a call before the window asks the user
// about it.
type Permissions struct {
	set   *workspace.Set
	store *settings.Store // nil without a config directory
}

// Rule is a permission rule: allow, ask or deny a tool, or (exec_shell) a command prefix.
type Rule struct {
	Action  string `json:"action"`
	Tool    string `json:"tool"`
	Command string `json:"command"`
	// Domain is the host a web_fetch rule covers (docs.python.org, *.python.org).
	Domain string `json:"domain,omitempty"`
}

// CallCheck is what a call would meet, found without running it.
type CallCheck struct {
	// Error is the error JSON ({"error": {code, message}}) the call is answered with at once; "" when it can run.
	Error string `json:"error"`
	// Action is allow (run without asking), ask, or deny; "" when no rule names the tool (the window's default).
	Action    string `json:"action"`
	Sensitive bool   `json:"sensitive"`
	ReadOnly  bool   `json:"read_only"`
	Why       string `json:"why"`
	// Rule is the rule that decided, if one did.
	Rule *Rule `json:"rule,omitempty"`
	// Suggest is the command prefix "Always allow" would add (exec_shell).
	Suggest string `json:"suggest"`
	// Grant is the program "allow for this session" may cover (exec_shell); "" when a grant of the whole program
	// would allow any code (an interpreter such as node or python3, or a program that runs others).
	Grant string `json:"grant"`
}

// Check validates a call as the tool would before running it (schema, shell syntax, allowlist, deny rules, paths)
// and says whether it may run without asking.
func (p *Permissions) Check(ws, name, args string) CallCheck {
	w, err := open(p.set, ws)
	if err != nil {
		return CallCheck{Error: err.Error()}
	}
	r := w.Deps().Check(w.Registry(), name, []byte(args))
	out := CallCheck{Action: string(r.Decision.Action), Sensitive: r.Decision.Sensitive, ReadOnly: r.Decision.ReadOnly, Why: r.Decision.Why, Suggest: r.Suggest, Grant: r.Grant}
	if r.Decision.Rule != nil {
		out.Rule = &Rule{Action: string(r.Decision.Rule.Action), Tool: r.Decision.Rule.Tool, Command: r.Decision.Rule.Command, Domain: r.Decision.Rule.Domain}
	}
	if r.Error != nil {
		out.Error = string(r.Error.JSON())
	}
	return out
}

// Rules lists the open project's rules.
func (p *Permissions) Rules(ws string) ([]Rule, error) {
	root, err := p.root(ws)
	if err != nil {
		return nil, err
	}
	proj, err := p.store.Project(root)
	if err != nil {
		return nil, reject(tool.Errorf(tool.CodeInternal, "reading settings: %v", err))
	}
	return toRules(proj.Rules), nil
}

// AddRule adds a rule to the open project (Always allow on an approval card); the same rule twice is kept once.
func (p *Permissions) AddRule(ws string, r Rule) ([]Rule, error) {
	root, err := p.root(ws)
	if err != nil {
		return nil, err
	}
	rule, err := normalize(r)
	if err != nil {
		return nil, err
	}
	var out []permissions.Rule
	err = p.store.UpdateProject(root, func(proj *settings.Project) error {
		for _, x := range proj.Rules {
			if x == rule {
				out = proj.Rules
				return nil
			}
		}
		proj.Rules = append(proj.Rules, rule)
		out = proj.Rules
		return nil
	})
	if err != nil {
		return nil, reject(tool.Errorf(tool.CodeInternal, "saving settings: %v", err))
	}
	return toRules(out), nil
}

// RemoveRule takes a rule off the open project (the settings screen's Remove) and answers the rules left. A rule is
// named by what it says, not by its place in a list, so the screen never writes a whole list back: a rule added
// meanwhile (an approval card's Always, another window) stays. A rule the project does not have is no change.
func (p *Permissions) RemoveRule(ws string, r Rule) ([]Rule, error) {
	root, err := p.root(ws)
	if err != nil {
		return nil, err
	}
	// As written (a rule saved by an older version may no longer pass Normalize), and as Normalize writes it.
	names := []permissions.Rule{{Action: permissions.Action(r.Action), Tool: r.Tool, Command: r.Command, Domain: r.Domain}}
	if rule, err := normalize(r); err == nil {
		names = append(names, rule)
	}
	var out []permissions.Rule
	err = p.store.UpdateProject(root, func(proj *settings.Project) error {
		proj.Rules = slices.DeleteFunc(proj.Rules, func(x permissions.Rule) bool { return slices.Contains(names, x) })
		out = proj.Rules
		return nil
	})
	if err != nil {
		return nil, reject(tool.Errorf(tool.CodeInternal, "saving settings: %v", err))
	}
	return toRules(out), nil
}

func (p *Permissions) root(ws string) (string, error) {
	w, err := open(p.set, ws)
	if err != nil {
		return "", err
	}
	if p.store == nil {
		return "", reject(tool.Errorf(tool.CodeInternal, "no config directory to keep settings in"))
	}
	return w.Root(), nil
}

func normalize(r Rule) (permissions.Rule, error) {
	rule, err := permissions.Normalize(permissions.Rule{Action: permissions.Action(r.Action), Tool: r.Tool, Command: r.Command, Domain: r.Domain}, cmdpolicy.Split)
	if err != nil {
		return rule, reject(&tool.Error{Code: tool.CodeInvalidArgument, Field: "rules", Message: err.Error()})
	}
	return rule, nil
}

func toRules(rs []permissions.Rule) []Rule {
	out := make([]Rule, len(rs))
	for i, r := range rs {
		out[i] = Rule{Action: string(r.Action), Tool: r.Tool, Command: r.Command, Domain: r.Domain}
	}
	return out
}
