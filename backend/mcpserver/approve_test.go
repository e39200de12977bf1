package mcpserver

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rooted-dev/rooted/backend/testtree"
)

// A command the window would ask about (git reset --hard discards changes) asks the client's user over MCP, in
// both protocol eras: accept runs it, decline refuses it with nothing run, and a client that cannot ask gets
// permission_denied naming the rule that would allow it. A command nobody asks about runs without a question.
func TestAskedCommandsBecomeElicitations(t *testing.T) {
	for _, era := range []string{"2025-06-18", "2026-07-28"} {
		for _, c := range []struct {
			name    string
			answer  string // the user's action; "" for a client that declares no elicitation
			reset   bool   // the command ran
			refusal string // what the refusal says
		}{
			{"accept", "accept", true, ""},
			{"decline", "decline", false, "did not approve"},
			{"no elicitation", "", false, `rule "allow git reset"`},
		} {
			t.Run(era+"/"+c.name, func(t *testing.T) {
				t.Setenv("XDG_CONFIG_HOME", t.TempDir())
				t.Setenv("XDG_CACHE_HOME", t.TempDir())
				dir := testtree.Repo(t, map[string]string{"src/main.go": "package main\n"})
				os.WriteFile(filepath.Join(dir, "src", "main.go"), []byte("uncommitted\n"), 0o644)
				s, err := New(Options{Root: dir})
				if err != nil {
					t.Fatal(err)
				}
				opts, asked := answering(t, c.answer, "git reset --hard", "discards uncommitted changes")
				cs := connectWith(t, s, opts, era)
				start := time.Now()
				res, got := call(t, cs, "exec_shell", map[string]any{"command": "git reset --hard"})
				t.Logf("%s round trip with the question: %v", era, time.Since(start))
				b, _ := os.ReadFile(filepath.Join(dir, "src", "main.go"))
				if ran := string(b) != "uncommitted\n"; ran != c.reset {
					t.Errorf("the command ran: %v, want %v (%s)", ran, c.reset, got["text"])
				}
				if c.answer != "" && *asked != 1 {
					t.Errorf("asked %d times", *asked)
				}
				if c.refusal != "" {
					deniedSaying(t, res, got, c.refusal)
				}
				// git status reads: it runs without a question.
				before := *asked
				if res, got := call(t, cs, "exec_shell", map[string]any{"command": "git status"}); res.IsError || *asked != before {
					t.Errorf("git status: asked %d more times; %v", *asked-before, got["text"])
				}
			})
		}
	}
}

// answering is the options of a client whose user answers every elicitation with action (a client that declares no
// elicitation for ""), and the count of questions put to it; a question that lacks any of words fails the test.
func answering(t *testing.T, action string, words ...string) (*mcp.ClientOptions, *int) {
	asked := new(int)
	opts := &mcp.ClientOptions{}
	if action == "" {
		return opts, asked
	}
	opts.ElicitationHandler = func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		*asked++
		for _, w := range words {
			if !strings.Contains(req.Params.Message, w) {
				t.Errorf("the question: %q", req.Params.Message)
				break
			}
		}
		return &mcp.ElicitResult{Action: action}, nil
	}
	return opts, asked
}

// deniedSaying fails the test unless the call was refused with permission_denied and a message holding refusal.
func deniedSaying(t *testing.T, res *mcp.CallToolResult, got map[string]any, refusal string) {
	t.Helper()
	e, _ := got["error"].(map[string]any)
	if msg, _ := e["message"].(string); !res.IsError || e["code"] != "permission_denied" || !strings.Contains(msg, refusal) {
		t.Errorf("refusal: %v", got)
	}
}

// connectWith is connect with client options and a protocol version.
func connectWith(t *testing.T, s *Server, opts *mcp.ClientOptions, version string) *mcp.ClientSession {
	t.Helper()
	return dial(t, s, mcp.NewClient(&mcp.Implementation{Name: "elicit-test", Version: "1"}, opts), version)
}
