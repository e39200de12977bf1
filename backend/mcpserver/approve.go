package mcpserver

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rooted-dev/rooted/backend/permissions"
	"github.com/rooted-dev/rooted/backend/tool"
)

// A command the window would ask about before it runs — one a project's ask rule names, or one that destroys or
// publishes (git push, git reset --hard, rm -r: permissions.Sensitive) with no rule naming it — is asked about over
// MCP too, of the client's user, by elicitation: accept runs it, decline or cancel refuses it with
// permission_denied. A client that declared no elicitation cannot ask, so the command is refused with how to allow
// it. Any other command runs as configured (the allowlist, deny rules and the sandbox apply), as before.

// approvalInput is the key of the input request that asks the user about a command.
const approvalInput = "approve"

// asksUser reports whether a command with decision d needs the user's word over MCP.
func asksUser(d permissions.Decision) bool {
	return d.Action == permissions.Ask && (d.Sensitive || d.Rule != nil && d.Rule.Action == permissions.Ask)
}

// approval returns, for a call of exec_shell that needs the user's word, the input request that asks for it (a
// result), or the refusal when the user declined or cannot be asked (an error); both nil when the call goes ahead.
func (s *Server) approval(req *mcp.CallToolRequest, args json.RawMessage) (*mcp.CallToolResult, *tool.Error) {
	check := s.deps.Check(s.registry, "exec_shell", args)
	if check.Error != nil || !asksUser(check.Decision) {
		return nil, nil // the call reports its own errors
	}
	command := commandLine(args)
	why := check.Decision.Why
	if check.Decision.Why == "" {
		why = "a rule of this project says to ask"
		if r := check.Decision.Rule; r != nil && r.Command != "" {
			why = fmt.Sprintf("this project's rule \"ask %s\" says to ask", r.Command)
		}
	}
	caps := req.ClientCapabilities()
	if caps == nil || caps.Elicitation == nil {
		return nil, &tool.Error{
			Code: tool.CodePermissionDenied,
			Message: fmt.Sprintf("%s needs the user's approval (%s), and this client cannot ask (it declared no elicitation); nothing was run. "+
				"To let it run without asking, the user adds the rule \"allow %s\" for this project (Rooted's Settings, Permissions; or the project's rules in %s)", command, why, check.Suggest, s.settingsPath()),
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
	info, _ := s.session.Info()
	return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{approvalInput: &mcp.ElicitParams{
		Mode:            "form",
		Message:         fmt.Sprintf("Run %s in %s? It needs your approval: %s.", command, info.Root, why),
		RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{}},
	}}}, nil
}

// commandLine is an exec_shell call's command as one line, as the user would type it.
func commandLine(args json.RawMessage) string {
	var in struct {
		Command string   `json:"command"`
		Args    []string `json:"args"`
	}
	_ = json.Unmarshal(args, &in)
	if len(in.Args) > 0 {
		return "`" + permissions.Join(append([]string{in.Command}, in.Args...)) + "`"
	}
	return "`" + strings.TrimSpace(in.Command) + "`"
}

// settingsPath is where the user's settings file is, for a message that says how to change it.
func (s *Server) settingsPath() string {
	if s.deps.Settings != nil {
		return s.deps.Settings.Path()
	}
	return "Rooted's settings.json"
}
