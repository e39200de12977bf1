package mcpserver

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ask_user puts the model's question to the client's user by elicitation, in both eras: the choices as an enum,
// the answer back to the model; a user who declines is said to have declined.
func TestAskUserByElicitation(t *testing.T) {
	for _, era := range []string{"2025-06-18", "2026-07-28"} {
		for _, action := range []string{"accept", "decline"} {
			t.Run(era+"/"+action, func(t *testing.T) {
				s, err := New(Options{Root: project(t)})
				if err != nil {
					t.Fatal(err)
				}
				var asked *mcp.ElicitParams
				cs := connectWith(t, s, &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					asked = req.Params
					return &mcp.ElicitResult{Action: action, Content: map[string]any{"answer": "Postgres"}}, nil
				}}, era)
				res, got := call(t, cs, "ask_user", map[string]any{"question": "Which database should the tests use?", "choices": []string{"Postgres", "SQLite"}})
				if asked == nil || asked.Message != "Which database should the tests use?" || !strings.Contains(mustJSON(asked.RequestedSchema), `"enum":["Postgres","SQLite"]`) {
					t.Fatalf("the question put to the user: %+v", asked)
				}
				text := got["text"].(string)
				switch action {
				case "accept":
					if res.IsError || !strings.Contains(text, "Postgres") {
						t.Errorf("answered: %s", text)
					}
				default:
					if !res.IsError || !strings.Contains(text, "chose not to answer") {
						t.Errorf("declined: %s", text)
					}
				}
			})
		}
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
