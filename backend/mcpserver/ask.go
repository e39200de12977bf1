package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rooted-dev/rooted/backend/tool"
)

// ask_user over MCP asks the client's user by elicitation, as a command the window would ask about does
// (approve.go): the question as the message, the choices as an enum, a free answer otherwise. The tool reads the
// answer from the call's context (answered); a client that cannot ask gets the tool's own no_user.

// answerInput is the key of the input request that puts the model's question to the user.
const answerInput = "answer"

type answerKey struct{}

// answered is the user's answer that the call's context carries, for Deps.Ask.
func answered(ctx context.Context, _ string, _ []string) (string, error) {
	if a, ok := ctx.Value(answerKey{}).(string); ok {
		return a, nil
	}
	return "", &tool.Error{Code: tool.CodeNoUser, Message: "no one can answer here: this client cannot put a question to its user (it declared no elicitation); decide with your own judgement and say what you assumed, or end your turn with the question"}
}

// question returns, for a call of ask_user, the context that carries the user's answer, or the input request
// that asks for it; a refusal when the user declined; all three empty where the client cannot ask (the tool then
// refuses with no_user).
func question(ctx context.Context, req *mcp.CallToolRequest, args json.RawMessage) (context.Context, *mcp.CallToolResult, *tool.Error) {
	if caps := req.ClientCapabilities(); caps == nil || caps.Elicitation == nil {
		return ctx, nil, nil
	}
	if resp, ok := req.Params.InputResponses[answerInput].(*mcp.ElicitResult); ok {
		if resp.Action != "accept" {
			return ctx, nil, &tool.Error{Code: tool.CodePermissionDenied, Message: fmt.Sprintf("the user chose not to answer (%s): decide with your own judgement and say what you assumed, or end your turn", resp.Action)}
		}
		a, _ := resp.Content["answer"].(string)
		return context.WithValue(ctx, answerKey{}, a), nil, nil
	}
	var in struct {
		Question string   `json:"question"`
		Choices  []string `json:"choices"`
	}
	if json.Unmarshal(args, &in) != nil || in.Question == "" || len(in.Choices) > 6 {
		return ctx, nil, nil // the tool says what is wrong with the call
	}
	answer := map[string]any{"type": "string", "title": "Answer"}
	if len(in.Choices) > 0 && !slices.Contains(in.Choices, "") {
		answer["enum"] = in.Choices // the user picks one; a free answer is the model's to ask for without choices
	}
	return ctx, &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{answerInput: &mcp.ElicitParams{
		Mode:    "form",
		Message: in.Question,
		RequestedSchema: map[string]any{
			"type": "object", "properties": map[string]any{"answer": answer}, "required": []string{"answer"},
		},
	}}}, nil
}
