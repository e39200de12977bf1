package tools

import (
	"context"
	_ "embed"
	"strings"

	"github.com/rooted-dev/rooted/backend/tool"
)

//go:embed ask_user.md
var askUserDoc string

type askUserIn struct {
	Question string   `json:"question" jsonschema:"the question, one or two sentences that make sense on their own" tool:"nonempty"`
	Choices  []string `json:"choices,omitempty" jsonschema:"up to 6 short answers to offer as buttons; the user may still type another"`
}

type askUserOut struct {
	Answer string `json:"answer"`
}

// maxChoices is how many answers ask_user offers as buttons.
const maxChoices = 6

// askUser asks the person at the face, where there is one. The window runs its agent in the frontend and answers
// ask_user there, in the conversation; a face with a person but no panel (MCP, through elicitation) sets
// Deps.Ask; elsewhere (the CLI, a script) the call is refused with no_user, which tells the model to go on with
// its own judgement or end its turn with the question.
func askUser(d Deps) *tool.Tool {
	return tool.New(tool.Def{
		Name: "ask_user", Title: "Ask the user", Description: askUserDoc, ReadOnly: true,
		Examples: []string{`{"question": "Keep the old endpoint for a release?", "choices": ["Keep it, deprecated", "Remove it now"]}`, `{"question": "Which database should the tests use?"}`},
	}, func(ctx context.Context, in askUserIn) (askUserOut, error) {
		if len(in.Choices) > maxChoices {
			return askUserOut{}, &tool.Error{Code: tool.CodeInvalidArgument, Field: "choices", Message: "offer at most 6 choices; the user can type any other answer"}
		}
		for _, c := range in.Choices {
			if strings.TrimSpace(c) == "" {
				return askUserOut{}, &tool.Error{Code: tool.CodeInvalidArgument, Field: "choices", Message: "a choice is empty"}
			}
		}
		if d.Ask == nil {
			return askUserOut{}, &tool.Error{Code: tool.CodeNoUser, Message: "no one can answer here: this tool was called where there is no user to ask (a script or the command line); " +
				"decide with your own judgement and say what you assumed, or end your turn with the question"}
		}
		a, err := d.Ask(ctx, in.Question, in.Choices)
		if err != nil {
			return askUserOut{}, err
		}
		return askUserOut{Answer: a}, nil
	})
}
