package mcpclient

import (
	"cmp"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/rooted-dev/rooted/backend/netproxy"
	"github.com/rooted-dev/rooted/backend/netproxy/httpproxy"
	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/shell"
	"github.com/rooted-dev/rooted/backend/tool"
)

// MaxRefusedHosts bounds the hosts a server's record keeps: the most recently refused.
const MaxRefusedHosts = 16

// refusedNotifyEvery bounds how often a server refused the same hosts again tells OnChange (a new host tells it
// at once): a client retrying in a loop does not flood the window.
const refusedNotifyEvery = 2 * time.Second

// Refusal is one connection a program server's proxy refused in allow-list mode.
type Refusal struct {
	Host string
	// Reason says why, for the user and the model.
	Reason string
	// Allowable says a network allow rule would let it through: the host is not on the list, rather than denied
	// by a rule or resolving to an address commands never reach.
	Allowable bool
}

// ProxyRules are what a program server's proxy is made with in allow-list mode (Options.Proxy).
type ProxyRules struct {
	// Lists reads the project's hosts and deny rules as they are now, at every connection.
	Lists func() (allow, deny []string)
	// Refused hears of every connection refused.
	Refused func(Refusal)
}

// HTTPProxy makes servers' proxies with httpproxy (base: its resolver, and a test's exempt fixtures): no one is
// asked about a host not on the list, which is refused at once and reported.
func HTTPProxy(base httpproxy.Options) func(ProxyRules) shell.Proxy {
	return func(r ProxyRules) shell.Proxy {
		o := base
		o.Ask, o.Lists = nil, r.Lists
		o.OnRefuse = func(e *httpproxy.RefusedError) {
			r.Refused(Refusal{Host: e.Host, Reason: e.Error(), Allowable: !e.Denied && e.Address == nil})
		}
		return httpproxy.New(o)
	}
}

// RefusedHost is a host a server's proxy refused, as its status shows it: how many connections, the last when.
type RefusedHost struct {
	Host   string    `json:"host"`
	Count  int       `json:"count"`
	Last   time.Time `json:"last"`
	Reason string    `json:"reason"`
	// Allowable: a network allow rule for the host (the card's Always) lets the server reach it at its next
	// connection, with no restart.
	Allowable bool `json:"allowable"`
	seq       uint64
}

// refusals is a server's record of the hosts its proxies refused, kept across its restarts: deduplicated by
// host, at most MaxRefusedHosts, the least recent dropped first.
type refusals struct {
	mu       sync.Mutex
	hosts    []RefusedHost
	seq      uint64
	notified time.Time
}

// add records r at now and says whether OnChange should hear of it.
func (f *refusals) add(r Refusal, now time.Time) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.seq++
	i := slices.IndexFunc(f.hosts, func(h RefusedHost) bool { return h.Host == r.Host })
	fresh := i < 0
	if fresh {
		if len(f.hosts) >= MaxRefusedHosts {
			oldest := 0
			for j, h := range f.hosts {
				if h.seq < f.hosts[oldest].seq {
					oldest = j
				}
			}
			f.hosts = slices.Delete(f.hosts, oldest, oldest+1)
		}
		f.hosts = append(f.hosts, RefusedHost{Host: r.Host})
		i = len(f.hosts) - 1
	}
	h := &f.hosts[i]
	h.Count++
	h.Last, h.Reason, h.Allowable, h.seq = now, r.Reason, r.Allowable, f.seq
	if fresh || now.Sub(f.notified) >= refusedNotifyEvery {
		f.notified = now
		return true
	}
	return false
}

// mark is where the record stands now, for since.
func (f *refusals) mark() uint64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.seq
}

// since lists the hosts refused after mark, the most recent first.
func (f *refusals) since(mark uint64) []RefusedHost {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []RefusedHost
	for _, h := range f.hosts {
		if h.seq > mark {
			out = append(out, h)
		}
	}
	slices.SortFunc(out, func(a, b RefusedHost) int { return cmp.Compare(b.seq, a.seq) })
	return out
}

// shown lists the record for a status, the most recent first, leaving out the hosts the project allows now
// (allow, deny: its lists as they are): those are refused no more.
func (f *refusals) shown(allow, deny []string) []RefusedHost {
	var out []RefusedHost
	for _, h := range f.since(0) {
		if h.Allowable && netproxy.Allowed(allow, h.Host) && !netproxy.Allowed(deny, h.Host) {
			continue
		}
		out = append(out, h)
	}
	return out
}

// refusedNote is what the model reads of the hosts a server was refused (when: during a call, or its start):
// which, and what the user can do about them. "" when none.
func refusedNote(when, server string, hosts []RefusedHost) string {
	if len(hosts) == 0 {
		return ""
	}
	names := make([]string, len(hosts))
	allowable := false
	for i, h := range hosts {
		names[i] = h.Host
		allowable = allowable || h.Allowable
	}
	note := when + ", the MCP server " + server + " was refused " + strings.Join(names, ", ") +
		" by Rooted's network proxy (this project's programs reach only listed hosts)"
	if allowable {
		note += "; if the tool needs it, ask the user to allow it for this project (Settings, MCP servers: Allow, or a network rule)"
	}
	return note
}

// lists reads the project's hosts and deny rules as they are now, for a server's proxy: a project no longer in
// allow-list mode allows none (its servers get the network they are to have when they start again).
func (m *Manager) lists(started settings.Project) func() ([]string, []string) {
	return func() ([]string, []string) {
		proj, err := m.config()
		if err != nil {
			return started.Hosts(), started.DeniedHosts()
		}
		if proj.Network != settings.NetworkAllowlist {
			return nil, nil
		}
		return proj.Hosts(), proj.DeniedHosts()
	}
}

// refusedRecord reports to s's record and, when it says so, to OnChange.
func (s *server) refusedRecord(r Refusal) {
	if s.refused.add(r, time.Now()) {
		s.m.changed()
	}
}

// withRefused tells a call's result the hosts the server was refused since mark: in the result (NetworkRefused,
// Hint), or in the failure's message and details, so the model can say why a tool that needs the network failed.
func (s *server) withRefused(out any, err error, mark uint64) (any, error) {
	hosts := s.refused.since(mark)
	if len(hosts) == 0 {
		return out, err
	}
	note := refusedNote("while this call ran", s.name, hosts)
	names := make([]string, len(hosts))
	for i, h := range hosts {
		names[i] = h.Host
	}
	var te *tool.Error
	switch {
	case errors.As(err, &te):
		te.Message += "; " + note
		if te.Details == nil {
			te.Details = map[string]any{}
		}
		te.Details["network_refused"] = names
	case err == nil:
		if r, ok := out.(Result); ok {
			r.NetworkRefused, r.Hint = names, note
			return r, nil
		}
	}
	return out, err
}
