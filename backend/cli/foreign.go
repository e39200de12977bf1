package cli

import (
	"context"
	"strings"

	"github.com/rooted-dev/rooted/backend/session"
	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/tool"
	"github.com/rooted-dev/rooted/backend/webfetch"
)

// ForeignTools are the tools of the MCP servers the user's settings name for a project (backend/mcpclient).
type ForeignTools interface {
	tool.Dynamic
	// StartAll starts every server and waits until each is connected or has failed, or ctx ends.
	StartAll(ctx context.Context)
	// Problems says, one a line, which servers failed and why.
	Problems() []string
	Close() error
}

// Extras are what rooted-mcp links and rooted leaves out: an HTTP client for web_fetch, and the MCP client for
// other servers' tools (OpenForeign, given the project's root). rooted hands a command that needs one to
// rooted-mcp.
type Extras struct {
	Web         webfetch.Fetcher
	OpenForeign func(root string) ForeignTools
}

// isForeign says the tool is another MCP server's.
func isForeign(name string) bool { return strings.HasPrefix(name, "mcp__") }

// hasForeignServers reports whether the user's settings name MCP servers for the session's project.
func hasForeignServers(s *session.Session) bool {
	info, err := s.Info()
	if err != nil {
		return false
	}
	path, err := settings.DefaultPath()
	if err != nil {
		return false
	}
	p, err := settings.NewStore(path).Project(info.Root)
	return err == nil && len(p.MCPServers) > 0
}

// withForeign adds the project's MCP servers' tools to reg; close ends the servers.
func withForeign(s *session.Session, reg *tool.Registry, open func(string) ForeignTools) (ForeignTools, bool) {
	info, err := s.Info()
	if err != nil || open == nil {
		return nil, false
	}
	f := open(info.Root)
	reg.WithDynamic(f)
	return f, true
}
