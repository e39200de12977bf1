package app

import (
	"context"
	"crypto/rand"
	"errors"
	"slices"
	"sync"
	"time"

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
// allow-list mode is waiting to reach, not on the project's list, Port the port it asked for (what an allow
// answer covers: the same host at another port is asked about again); Ask names the question, WaitMS how long it
// waits for AnswerHost. streamHostEnded says a question ended without an answer: Ended says why (hostEnded*), and
// nothing the window sends about it afterwards can change what the command reaches.
const (
	streamHost      = "host"
	streamHostEnded = "host_ended"
)

// Why a question about a host ended without an answer.
const (
	hostEndedTimeout = "timeout" // the proxy's wait for the answer ran out: the host was refused
	hostEndedCommand = "ended"   // the command ended first
	hostEndedCall    = "left"    // the call stopped waiting on the command (stopped, or moved to the background)
)

// hostQuestion is one open question: the only way to answer it is its token, unguessable and never reused, so an
// answer meant for a question that ended cannot answer another (a later command, another conversation, a call id
// a provider reuses).
type hostQuestion struct {
	host   string
	answer chan bool // one answer, taken or not: AnswerHost never blocks
}

// hostQuestions are the questions about hosts that running commands wait on, by token.
type hostQuestions struct {
	mu sync.Mutex
	m  map[string]hostQuestion
}

func (q *hostQuestions) put(host string) (string, chan bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.m == nil {
		q.m = map[string]hostQuestion{}
	}
	token := rand.Text()
	ch := make(chan bool, 1)
	q.m[token] = hostQuestion{host: host, answer: ch}
	return token, ch
}

// take removes the question token about host, for the one side that gets it: AnswerHost, which then answers, or
// the asker whose wait ended, which then refuses. Whichever takes it decides, so the window is never told an
// answer took that did not. A token about another host stays open.
func (q *hostQuestions) take(token, host string) (hostQuestion, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	h, ok := q.m[token]
	if !ok || h.host != host {
		return hostQuestion{}, false
	}
	delete(q.m, token)
	return h, true
}

// hostAsker asks the window, while the command of call callID runs, about a host not on the project's list at
// a port: it
// sends the question as the call's output (streamHost) and waits for AnswerHost, the proxy's bound (ctx), or the
// call's end (call: a command that moved to the background has no one waiting on it, and is refused at once).
// A question that ends unanswered is taken back and the window told why (streamHostEnded).
func (t *Tools) hostAsker(call context.Context, callID string) tools.HostAsk {
	return func(ctx context.Context, host string, port int) bool {
		if call.Err() != nil {
			return false
		}
		var wait int64
		if dl, ok := ctx.Deadline(); ok {
			d := time.Until(dl)
			if d >= time.Second {
				d = d.Round(time.Second) // the bound as set: 120 s, not the 119.99 s left of it by now
			}
			wait = d.Milliseconds()
		}
		token, answer := t.questions.put(host)
		t.emit(EventToolOutput, ToolOutput{ID: callID, Stream: streamHost, Data: host, Port: port, Ask: token, WaitMS: wait})
		select {
		case yes := <-answer:
			return yes
		case <-ctx.Done():
		case <-call.Done():
		}
		if _, ok := t.questions.take(token, host); !ok {
			return <-answer // AnswerHost took it as the wait ended: its answer holds, as the window was told
		}
		why := hostEndedCall
		switch {
		case errors.Is(ctx.Err(), context.DeadlineExceeded):
			why = hostEndedTimeout
		case ctx.Err() != nil:
			why = hostEndedCommand
		}
		t.emit(EventToolOutput, ToolOutput{ID: callID, Stream: streamHostEnded, Data: host, Port: port, Ask: token, WaitMS: wait, Ended: why})
		return false
	}
}

// AnswerHost answers the question ask (streamHost's Ask) about host that a running command of project id waits on:
// allow lets it reach host for the rest of that command; false refuses it, naming the host. "Always" is a network
// rule added first (Permissions.AddRule), then this answer. A question no longer open (the command ended, or the
// wait's bound passed: the window was told, streamHostEnded) is not_found, and nothing changes; nil means the
// command took the answer.
func (t *Tools) AnswerHost(id, ask, host string, allow bool) error {
	if _, err := open(t.set, id); err != nil {
		return err
	}
	q, ok := t.questions.take(ask, host)
	if !ok {
		return reject(&tool.Error{Code: tool.CodeNotFound, Field: "ask", Message: "no running command is waiting for an answer about " + host + " (it ended, or stopped waiting): nothing was allowed", Details: map[string]any{"host": host}})
	}
	q.answer <- allow
	return nil
}
