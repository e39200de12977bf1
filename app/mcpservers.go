package app

import (
	"encoding/json"
	"sync"

	"github.com/rooted-dev/rooted/backend/mcpclient"
	"github.com/rooted-dev/rooted/backend/session"
	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/tool"
	"github.com/rooted-dev/rooted/backend/version"
)

// EventMCPServers says the open project's MCP servers changed state or tools: Settings re-reads their status, and
// the agent its tool list.
const EventMCPServers = "mcp:servers"

// MCPServers holds the MCP servers of the open project (mcpclient): their tools join the registry (tool.Dynamic),
// and Settings shows their status. They start when the project is first asked for its tools, and end when another
// project opens or the window closes.
type MCPServers struct {
	session   *session.Session
	store     *settings.Store
	secretEnv []string
	emit      func(name string, data any)

	mu   sync.Mutex
	root string
	m    *mcpclient.Manager
}

func newMCPServers(s *session.Session, store *settings.Store, secretEnv []string, emit func(string, any)) *MCPServers {
	return &MCPServers{session: s, store: store, secretEnv: secretEnv, emit: emit}
}

// current is the open project's manager, started when the project is new to it; nil with no project open.
func (x *MCPServers) current() *mcpclient.Manager {
	info, err := x.session.Info()
	if err != nil {
		return nil
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.m != nil && x.root == info.Root {
		return x.m
	}
	if x.m != nil {
		go x.m.Close() // the previous project's servers end with it
	}
	root := info.Root
	x.root = root
	x.m = mcpclient.New(mcpclient.Options{
		Root: root, Settings: x.store, SecretEnv: x.secretEnv, Version: version.Version,
		OnChange: func() {
			if x.emit != nil {
				x.emit(EventMCPServers, root)
			}
		},
	})
	x.m.Start()
	return x.m
}

// tools gives the registry the open project's servers' tools. Apart from MCPServers, whose exported methods are
// the window's to call: the webview neither lists tool values nor ends servers.
func (x *MCPServers) tools() tool.Dynamic { return mcpTools{x} }

type mcpTools struct{ x *MCPServers }

// DynamicTools lists the tools of the open project's servers connected now (tool.Dynamic).
func (t mcpTools) DynamicTools() []*tool.Tool {
	if m := t.x.current(); m != nil {
		return m.DynamicTools()
	}
	return nil
}

// DynamicTool returns a tool of the open project's servers (tool.Dynamic).
func (t mcpTools) DynamicTool(name string) (*tool.Tool, bool) {
	if m := t.x.current(); m != nil {
		return m.DynamicTool(name)
	}
	return nil, false
}

// Status lists the open project's servers with their state: starting, connected with its tools, failed with why
// and the end of its error output.
func (x *MCPServers) Status() []mcpclient.Status {
	if m := x.current(); m != nil {
		return m.Status()
	}
	return []mcpclient.Status{}
}

// Restart ends the open project's servers and starts them again, with the settings as they are now.
func (x *MCPServers) Restart() []mcpclient.Status {
	x.mu.Lock()
	old := x.m
	x.m = nil
	x.mu.Unlock()
	if old != nil {
		_ = old.Close()
	}
	return x.Status()
}

// Config is the open project's mcp_servers as JSON text, for Settings to edit ("{}" for none).
func (x *MCPServers) Config() (string, error) {
	info, err := x.session.Info()
	if err != nil {
		return "", rejectErr(err)
	}
	if x.store == nil {
		return "{}", nil
	}
	p, err := x.store.Project(info.Root)
	if err != nil {
		return "", reject(tool.Errorf(tool.CodeInternal, "reading settings: %v", err))
	}
	if len(p.MCPServers) == 0 {
		return "{}", nil
	}
	b, err := json.MarshalIndent(p.MCPServers, "", "  ")
	if err != nil {
		return "", reject(tool.Errorf(tool.CodeInternal, "%v", err))
	}
	return string(b), nil
}

// SaveConfig replaces the open project's mcp_servers with text (mcpclient.ParseServers checks it first; a mistake
// is invalid_argument and changes nothing), and starts the servers again with it.
func (x *MCPServers) SaveConfig(text string) ([]mcpclient.Status, error) {
	info, err := x.session.Info()
	if err != nil {
		return nil, rejectErr(err)
	}
	if x.store == nil {
		return nil, reject(tool.Errorf(tool.CodeInternal, "no settings file here (no config directory)"))
	}
	servers, err := mcpclient.ParseServers([]byte(text))
	if err != nil {
		return nil, reject(&tool.Error{Code: tool.CodeInvalidArgument, Field: "mcp_servers", Message: err.Error()})
	}
	if err := x.store.UpdateProject(info.Root, func(p *settings.Project) error {
		p.MCPServers = servers
		return nil
	}); err != nil {
		return nil, reject(tool.Errorf(tool.CodeInternal, "saving settings: %v", err))
	}
	return x.Restart(), nil
}

// close ends every server.
func (x *MCPServers) close() error {
	x.mu.Lock()
	m := x.m
	x.m = nil
	x.mu.Unlock()
	if m != nil {
		return m.Close()
	}
	return nil
}
