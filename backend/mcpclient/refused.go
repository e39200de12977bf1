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

// refusedNotifyEvery bounds how often a server's refusals tell OnChange, new hosts and hosts refused again alike:
// a client retrying in a loop, or naming a new host each time, does not flood the window. A refusal that comes
// sooner is told once the interval ends, so the window's last word is the record's last change.
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
	// Lists reads the hosts the server may reach (the project's, and those allowed for the server alone) and the
	// project's deny rules as they are now, at every connection.
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
			r.Refused(Refusal{Host: e.Host, Reason: e.Error(), Allowable: e.Allowable()})
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
	// Allowable: allowing the host for the server (the panel's Allow, settings.Project.AllowServerHost) lets it
	// reach the host at its next connection, with no restart.
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
	pending  bool // a notification is due at the interval's end
}

// add records r at now and says whether OnChange should hear of it now, or else after how long (0: a
// notification is due already, which will tell this change too).
func (f *refusals) add(r Refusal, now time.Time) (bool, time.Duration) {
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
	if f.pending {
		return false, 0
	}
	if since := now.Sub(f.notified); since < refusedNotifyEvery {
		f.pending = true
		return false, refusedNotifyEvery - since
	}
	f.notified = now
	return true, 0
}

// told records that OnChange heard, at now, of the notification that was due.
func (f *refusals) told(now time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.pending, f.notified = false, now
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

// shown lists the record for a status, the most recent first, leaving out the hosts the server may reach now
// (allow, deny: its proxy's lists as they are): those are refused no more.
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
		note += "; if the tool needs it, ask the user to allow it for " + server + " (Settings, MCP servers: Allow under " + server + "; the project's commands are not given it)"
	}
	return note
}

// lists reads, for the proxy of server name, the hosts it may reach as they are now (the project's, and those
// allowed for it alone: settings.Project.ServerHosts) and the project's deny rules: a project no longer in
// allow-list mode allows none (its servers get the network they are to have when they start again), and so does
// one whose settings cannot be read now: the lists from the server's start would miss a deny rule added since.
func (m *Manager) lists(name string) func() ([]string, []string) {
	return func() ([]string, []string) {
		proj, err := m.config()
		if err != nil {
			return nil, nil
		}
		if proj.Network != settings.NetworkAllowlist {
			return nil, nil
		}
		return proj.ServerHosts(name), proj.DeniedHosts()
	}
}

// refusedRecord reports to s's record and, when it says so, to OnChange.
func (s *server) refusedRecord(r Refusal) {
	now, later := s.refused.add(r, time.Now())
	switch {
	case now:
		s.m.changed()
	case later > 0:
		time.AfterFunc(later, func() {
			s.refused.told(time.Now())
			s.m.changed()
		})
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
