package settings

import (
	"errors"
	"fmt"
	"slices"

	"github.com/rooted-dev/rooted/backend/netproxy"
)

// ErrNoSuchServer is AllowServerHost's answer for a server the project's mcp_servers does not name.
var ErrNoSuchServer = errors.New("no such MCP server in this project's settings")

// ErrBadHost wraps a host AllowServerHost cannot list: not a host name, or one allowing every host.
var ErrBadHost = errors.New("not a host to allow")

// ServerHosts is the list in force for the proxy of MCP server name in allow-list mode: the project's (Hosts), then
// the hosts allowed for that server alone. Deny rules still win over both (DeniedHosts).
func (p Project) ServerHosts(name string) []string {
	out := p.Hosts()
	for _, h := range p.MCPServerHosts[name] {
		if n, err := netproxy.Normalize(h); err == nil && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// AllowServerHost adds host, in the form the proxy compares (netproxy.Normalize: a name, or "*.parent"), to the
// hosts MCP server name may reach besides the project's, and returns that form. A server the project does not
// name is ErrNoSuchServer: a grant must not wait, unseen, for whichever server is given the name later.
func (p *Project) AllowServerHost(name, host string) (string, error) {
	if _, ok := p.MCPServers[name]; !ok {
		return "", fmt.Errorf("%w: %q", ErrNoSuchServer, name)
	}
	n, err := netproxy.Normalize(host)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrBadHost, err)
	}
	if slices.Contains(p.MCPServerHosts[name], n) {
		return n, nil
	}
	if p.MCPServerHosts == nil {
		p.MCPServerHosts = map[string][]string{}
	}
	p.MCPServerHosts[name] = append(p.MCPServerHosts[name], n)
	return n, nil
}

// RemoveServerHost takes host off the hosts MCP server name may reach besides the project's; a host not there
// (in any spelling Normalize makes the same) changes nothing. The server's entry need not exist any more: a grant
// left behind can always be taken back.
func (p *Project) RemoveServerHost(name, host string) {
	n, err := netproxy.Normalize(host)
	if err != nil {
		n = host
	}
	hosts := slices.DeleteFunc(slices.Clone(p.MCPServerHosts[name]), func(h string) bool { return h == n || h == host })
	switch {
	case len(hosts) > 0:
		p.MCPServerHosts[name] = hosts
	case p.MCPServerHosts != nil:
		delete(p.MCPServerHosts, name)
		if len(p.MCPServerHosts) == 0 {
			p.MCPServerHosts = nil
		}
	}
}

// PruneServerHosts forgets the hosts of servers mcp_servers no longer names, so that a server given a removed
// one's name later starts with no grant it was never given.
func (p *Project) PruneServerHosts() {
	for name := range p.MCPServerHosts {
		if _, ok := p.MCPServers[name]; !ok {
			delete(p.MCPServerHosts, name)
		}
	}
	if len(p.MCPServerHosts) == 0 {
		p.MCPServerHosts = nil
	}
}
