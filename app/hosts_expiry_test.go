package app

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/tool"
)

// hostEvents records the questions about hosts the window is sent.
type hostEvents struct {
	mu  sync.Mutex
	out []ToolOutput
}

func (h *hostEvents) emit(name string, data any) {
	if o, ok := data.(ToolOutput); ok && name == EventToolOutput {
		h.mu.Lock()
		h.out = append(h.out, o)
		h.mu.Unlock()
	}
}

// of lists what was sent for call.
func (h *hostEvents) of(call string) []ToolOutput {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []ToolOutput
	for _, o := range h.out {
		if o.ID == call {
			out = append(out, o)
		}
	}
	return out
}

// waitAsked waits until call's asker has sent its n-th question and returns it.
func (h *hostEvents) waitAsked(t *testing.T, call string, n int) ToolOutput {
	t.Helper()
	for range 2000 {
		var asked []ToolOutput
		for _, o := range h.of(call) {
			if o.Stream == streamHost {
				asked = append(asked, o)
			}
		}
		if len(asked) >= n {
			return asked[n-1]
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("no question %d was sent: %+v", n, h.of(call))
	return ToolOutput{}
}

func notFound(err error) bool {
	return err != nil && strings.Contains(err.Error(), `"code":"`+tool.CodeNotFound+`"`)
}

// A question about a host that ends without an answer tells the window why (the wait ran out, the command ended,
// the call stopped waiting), and nothing sent about it afterwards is taken: the click on a card that expired is
// not_found and the command stays refused. A question's token answers it alone: not one about another host, nor
// a later question about the same host in the same call.
func TestHostQuestionEndsUnanswered(t *testing.T) {
	svc := openServices(t)
	if _, err := svc.Projects.Open(t.TempDir()); err != nil {
		t.Fatal(err)
	}
	id := cur(t, svc)
	ev := &hostEvents{}
	svc.Tools.emit = ev.emit
	const host = "late.example.org"
	cases := []struct {
		name string
		// end ends the wait: the proxy's bound, the proxy's life (the command), or the call.
		end  func(cancelProxy, cancelCall context.CancelFunc)
		want string
	}{
		{"the wait ran out", nil, hostEndedTimeout},
		{"the command ended", func(p, _ context.CancelFunc) { p() }, hostEndedCommand},
		{"the call stopped waiting", func(_, c context.CancelFunc) { c() }, hostEndedCall},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			callID := "call-" + c.want
			call, cancelCall := context.WithCancel(context.Background())
			defer cancelCall()
			wait := time.Hour
			if c.end == nil {
				wait = 300 * time.Millisecond
			}
			ctx, cancelProxy := context.WithTimeout(context.Background(), wait)
			defer cancelProxy()
			got := make(chan bool, 1)
			go func() { got <- svc.Tools.hostAsker(call, callID)(ctx, host, 8443) }()
			asked := ev.waitAsked(t, callID, 1)
			if asked.ID != callID || asked.Data != host || asked.Port != 8443 || asked.Ask == "" || asked.WaitMS <= 0 {
				t.Fatalf("the question: %+v", asked)
			}
			if c.end != nil {
				c.end(cancelProxy, cancelCall)
			}
			if <-got {
				t.Fatal("a question that ended unanswered let the host through")
			}
			all := ev.of(callID)
			last := all[len(all)-1]
			if last.Stream != streamHostEnded || last.Ask != asked.Ask || last.Data != host || last.Port != 8443 || last.Ended != c.want || last.WaitMS != asked.WaitMS {
				t.Errorf("the window was told %+v, want %s ended %q", last, asked.Ask, c.want)
			}
			if err := svc.Tools.AnswerHost(id, asked.Ask, host, true); !notFound(err) {
				t.Errorf("a click after the end: %v, want not_found", err)
			}
		})
	}

	t.Run("a token answers its own question alone", func(t *testing.T) {
		call := context.Background()
		ask := svc.Tools.hostAsker(call, "call-2")
		short, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		if ask(short, host, 443) {
			t.Fatal("the first question let the host through unanswered")
		}
		stale := ev.waitAsked(t, "call-2", 1).Ask
		got := make(chan bool, 1)
		go func() { got <- ask(context.Background(), host, 443) }()
		fresh := ev.waitAsked(t, "call-2", 2).Ask
		if fresh == stale {
			t.Fatalf("two questions share the token %s", fresh)
		}
		if err := svc.Tools.AnswerHost(id, stale, host, true); !notFound(err) {
			t.Errorf("the first question's token on the second: %v, want not_found", err)
		}
		if err := svc.Tools.AnswerHost(id, fresh, "other.example.org", true); !notFound(err) {
			t.Errorf("the token with another host: %v, want not_found", err)
		}
		if err := svc.Tools.AnswerHost(id, fresh, host, false); err != nil {
			t.Fatalf("the open question's own answer: %v", err)
		}
		if <-got {
			t.Error("declined, yet let through")
		}
		for _, o := range ev.of("call-2") {
			if o.Stream == streamHostEnded && o.Ask == fresh {
				t.Errorf("an answered question was reported ended: %+v", o)
			}
		}
	})
}
