package tools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/session"
	"github.com/rooted-dev/rooted/backend/tool"
)

// ask_user where no one can answer (the CLI) is refused with no_user and a message the model can act on; where a
// face can ask (Deps.Ask), the answer comes back as it was given; bad choices are refused before anyone is asked.
func TestAskUser(t *testing.T) {
	ctx := context.Background()
	headless := Registry(Deps{Session: session.New()})
	_, e := headless.Call(ctx, "ask_user", []byte(`{"question": "Which database?", "choices": ["sqlite", "postgres"]}`))
	if e == nil || e.Code != tool.CodeNoUser || !strings.Contains(e.Message, "decide with your own judgement") {
		t.Fatalf("headless: %+v", e)
	}
	var asked []string
	face := Registry(Deps{Session: session.New(), Ask: func(_ context.Context, q string, choices []string) (string, error) {
		asked = append(asked, q+"|"+strings.Join(choices, ","))
		return "postgres", nil
	}})
	raw, e := face.Call(ctx, "ask_user", []byte(`{"question": "Which database?", "choices": ["sqlite", "postgres"]}`))
	var out askUserOut
	if e != nil || json.Unmarshal(raw, &out) != nil || out.Answer != "postgres" || strings.Join(asked, ";") != "Which database?|sqlite,postgres" {
		t.Fatalf("asked %v, got %s %+v", asked, raw, e)
	}
	for _, args := range []string{`{"question": ""}`, `{"question": "q", "choices": ["a","b","c","d","e","f","g"]}`, `{"question": "q", "choices": [" "]}`} {
		if _, e := face.Call(ctx, "ask_user", []byte(args)); e == nil || e.Code != tool.CodeInvalidArgument {
			t.Errorf("%s: %+v", args, e)
		}
	}
	if len(asked) != 1 {
		t.Errorf("asked again for bad input: %v", asked)
	}
}
