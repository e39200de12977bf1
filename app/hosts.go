package app

import (
	"slices"
	"sync"

	"github.com/rooted-dev/rooted/backend/netproxy"
	"github.com/rooted-dev/rooted/backend/tool"
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
