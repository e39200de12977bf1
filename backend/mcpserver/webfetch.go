package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rooted-dev/rooted/backend/permissions"
	"github.com/rooted-dev/rooted/backend/tool"
	"github.com/rooted-dev/rooted/backend/tools"
	"github.com/rooted-dev/rooted/backend/workspace"
)

// fetchInput is the key of the input request that asks the user about a fetch from a new domain.
const fetchInput = "approve_fetch"

// fetchApproval is approval for web_fetch: the first fetch from a domain no rule allows asks the client's user by
// elicitation, as the window's card would; accept runs it this once (ctx carries the approval), decline or cancel
// refuses it. A client that cannot ask leaves the call as it is, and the tool refuses it with the rule that would
// allow the domain. It returns the input request (a result) when the user must be asked.
func (s *Server) fetchApproval(ctx context.Context, w *workspace.Workspace, req *mcp.CallToolRequest, args json.RawMessage) (context.Context, *mcp.CallToolResult, *tool.Error) {
	check := w.Deps().Check(w.Registry(), "web_fetch", args)
	if check.Error != nil || check.Decision.Action != permissions.Ask {
		return ctx, nil, nil // the call reports its own errors; an allow or deny rule decides without asking
	}
	domain := check.Suggest
	if caps := req.ClientCapabilities(); caps == nil || caps.Elicitation == nil {
		return ctx, nil, nil
	}
	if resp, ok := req.Params.InputResponses[fetchInput].(*mcp.ElicitResult); ok {
		if resp.Action == "accept" {
			return tools.ApprovedCall(ctx, "web_fetch", args), nil, nil
		}
		return ctx, nil, &tool.Error{
			Code:    tool.CodePermissionDenied,
			Message: fmt.Sprintf("the user did not approve fetching from %s (%s); nothing was fetched", domain, resp.Action),
			Details: map[string]any{"domain": domain},
		}
	}
	var in struct {
		URL string `json:"url"`
	}
	_ = json.Unmarshal(args, &in)
	return ctx, &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{fetchInput: &mcp.ElicitParams{
		Mode: "form",
		Message: fmt.Sprintf("Fetch from %s? The agent asks to read %s. To stop being asked about this domain, add the rule "+
			"{\"action\": \"allow\", \"tool\": \"web_fetch\", \"domain\": %q} in %s.", domain, in.URL, domain, settingsPath(w)),
		RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{}},
	}}}, nil
}
