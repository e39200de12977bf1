package mcpserver

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rooted-dev/rooted/backend/cmdpolicy"
	"github.com/rooted-dev/rooted/backend/permissions"
	"github.com/rooted-dev/rooted/backend/tool"
	"github.com/rooted-dev/rooted/backend/workspace"
)

// A command the window would ask about before it runs — one a project's ask rule names, or one that destroys or
// publishes (git push, git reset --hard, rm -r: permissions.Sensitive) with no rule naming it — is asked about over
// MCP too, of the client's user, by elicitation: accept runs it, decline or cancel refuses it with
// permission_denied. A client that declared no elicitation cannot ask, so the command is refused with how to allow
// it. Any other command runs as configured (the allowlist, deny rules and the sandbox apply), as before.

// approvalInput is the key of the input request that asks the user about a command.
const approvalInput = "approve"

// asksUser reports whether a command argv with decision d needs the user's word over MCP: one that destroys or
// publishes, or that an ask rule names. Code written into a command for an interpreter (node -e), which the window
// also asks about so that its user reads the code, is not asked about here: an MCP client shows its user every
// call's arguments before it is made, when its user wants that, and the sandbox holds either way.
func asksUser(argv []string, d permissions.Decision) bool {
	if d.Action != permissions.Ask {
		return false
	}
	if d.Rule != nil && d.Rule.Action == permissions.Ask {
		return true
	}
	return d.Sensitive && permissions.InlineCode(argv) == ""
}

// approval returns, for a call of exec_shell that needs the user's word, the input request that asks for it (a
// result), or the refusal when the user declined or cannot be asked (an error); both nil when the call goes ahead.
func (s *Server) approval(w *workspace.Workspace, req *mcp.CallToolRequest, args json.RawMessage) (*mcp.CallToolResult, *tool.Error) {
	check := w.Deps().Check(w.Registry(), "exec_shell", args)
	argv := commandArgv(args)
	if check.Error != nil || !asksUser(argv, check.Decision) {
		return nil, nil // the call reports its own errors
	}
	command := "`" + permissions.Join(argv) + "`"
	why := check.Decision.Why
	if check.Decision.Why == "" {
		why = "a rule of this project says to ask"
		if r := check.Decision.Rule; r != nil && r.Command != "" {
			why = fmt.Sprintf("this project's rule \"ask %s\" says to ask", r.Command)
		}
	}
	rule := `the rule "allow ` + check.Suggest + `"`
	if check.Suggest == "" {
		rule = "a rule that allows it"
	}
	caps := req.ClientCapabilities()
	if caps == nil || caps.Elicitation == nil {
		return nil, &tool.Error{
			Code: tool.CodePermissionDenied,
			Message: fmt.Sprintf("%s needs the user's approval (%s), and this client cannot ask (it declared no elicitation); nothing was run. "+
				"To let it run without asking, the user adds %s for this project (Rooted's Settings, Permissions; or the project's rules in %s)", command, why, rule, settingsPath(w)),
			Details: map[string]any{"command": command, "allow_rule": check.Suggest},
		}
	}
	if resp, ok := req.Params.InputResponses[approvalInput].(*mcp.ElicitResult); ok {
		if resp.Action == "accept" {
			return nil, nil
		}
		return nil, &tool.Error{
			Code:    tool.CodePermissionDenied,
			Message: fmt.Sprintf("the user did not approve %s (%s); nothing was run", command, resp.Action),
			Details: map[string]any{"command": command},
		}
	}
	info, _ := w.Session().Info()
	return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{approvalInput: &mcp.ElicitParams{
		Mode:            "form",
		Message:         fmt.Sprintf("Run %s in %s? It needs your approval: %s.", command, info.Root, why),
		RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{}},
	}}}, nil
}

// commandArgv is an exec_shell call's program and arguments, as the tool splits them.
func commandArgv(args json.RawMessage) []string {
	var in struct {
		Command string   `json:"command"`
		Args    []string `json:"args"`
	}
	_ = json.Unmarshal(args, &in)
	if len(in.Args) > 0 {
		return append([]string{strings.TrimSpace(in.Command)}, in.Args...)
	}
	argv, _ := cmdpolicy.Split(in.Command)
	return argv
}

// settingsPath is where the user's settings file is, for a message that says how to change it.
func settingsPath(w *workspace.Workspace) string {
	if w.Settings() != nil {
		return w.Settings().Path()
	}
	return "Rooted's settings.json"
}
