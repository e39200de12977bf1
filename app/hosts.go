package app

import (
	"context"
	"slices"
	"sync"

	"github.com/rooted-dev/rooted/backend/netproxy"
	"github.com/rooted-dev/rooted/backend/tool"
	"github.com/rooted-dev/rooted/backend/tools"
)

// hostGrants are the hosts the user allowed for one conversation's commands (a refused host's card, "allow for
// this conversation"), kept in memory only: they end with the window, as the window's other session grants do.
type hostGrants struct {
	mu sync.Mutex
	m  map[[2]string][]string // by workspace and conversation
}

func (g *hostGrants) add(ws, conversation, host string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.m == nil {
		g.m = map[[2]string][]string{}
	}
	k := [2]string{ws, conversation}
	if !slices.Contains(g.m[k], host) {
		g.m[k] = append(g.m[k], host)
	}
}

func (g *hostGrants) of(ws, conversation string) []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Clone(g.m[[2]string{ws, conversation}])
}

// AllowHost lets the commands of one conversation of project id reach host in allow-list mode, for as long as the
// window runs: the card of a host the proxy refused, "allow for this conversation". "Always" is a network rule
// (Permissions.AddRule), "deny" one too.
func (t *Tools) AllowHost(id, conversation, host string) error {
	if _, err := open(t.set, id); err != nil {
		return err
	}
	h, err := netproxy.Normalize(host)
	if err != nil {
		return reject(&tool.Error{Code: tool.CodeInvalidArgument, Field: "host", Message: err.Error()})
	}
	t.hosts.add(id, conversation, h)
	return nil
}

// streamHost is the stream of a call's live output that asks about a host: its data is the host a command in
// allow-list mode is waiting to reach, not on the project's list; the window answers with AnswerHost.
const streamHost = "host"

// hostQuestions are the questions about hosts that running commands wait on, by call id and host.
type hostQuestions struct {
	mu sync.Mutex
	m  map[[2]string]chan bool
}

func (q *hostQuestions) put(k [2]string) chan bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.m == nil {
		q.m = map[[2]string]chan bool{}
	}
	ch := make(chan bool, 1) // one answer, taken or not: AnswerHost never blocks
	q.m[k] = ch
	return ch
}

func (q *hostQuestions) drop(k [2]string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	delete(q.m, k)
}

func (q *hostQuestions) take(k [2]string) (chan bool, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	ch, ok := q.m[k]
	delete(q.m, k)
	return ch, ok
}

// hostAsker asks the window, while the command of call callID runs, about a host not on the project's list: it
// sends the question as the call's output (streamHost) and waits for AnswerHost, the proxy's bound (ctx), or the
// call's end (call: a command that moved to the background has no one waiting on it, and is refused at once).
func (t *Tools) hostAsker(call context.Context, callID string) tools.HostAsk {
	return func(ctx context.Context, host string) bool {
		if call.Err() != nil {
			return false
		}
		k := [2]string{callID, host}
		answer := t.questions.put(k)
		defer t.questions.drop(k)
		t.emit(EventToolOutput, ToolOutput{ID: callID, Stream: streamHost, Data: host})
		select {
		case yes := <-answer:
			return yes
		case <-ctx.Done():
		case <-call.Done():
		}
		return false
	}
}

// AnswerHost answers the question a running command of project id waits on (call callID, started with RunIn):
// allow lets it reach host for the rest of that command; false refuses it, naming the host. "Always" is a network rule added first
// (Permissions.AddRule), then this answer. A question no longer waited on (the command ended, or the wait's bound
// passed) is not_found, and nothing changes.
func (t *Tools) AnswerHost(id, callID, host string, allow bool) error {
	if _, err := open(t.set, id); err != nil {
		return err
	}
	answer, ok := t.questions.take([2]string{callID, host})
	if !ok {
		return reject(&tool.Error{Code: tool.CodeNotFound, Field: "host", Message: "no running command is waiting to reach " + host + " (it ended, or stopped waiting for an answer)"})
	}
	answer <- allow
	return nil
}
