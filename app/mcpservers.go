package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os/exec"
	"sync"
	"time"

	"github.com/rooted-dev/rooted/backend/keystore"
	"github.com/rooted-dev/rooted/backend/mcpclient"
	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/tool"
	"github.com/rooted-dev/rooted/backend/version"
	"github.com/rooted-dev/rooted/backend/workspace"
)

// EventMCPServers says an open project's MCP servers changed state or tools (MCPServersChanged): Settings re-reads
// their status, and the agent its tool list.
const EventMCPServers = "mcp:servers"

// MCPServersChanged names the project whose servers changed.
type MCPServersChanged struct {
	Workspace string `json:"workspace"`
	Root      string `json:"root"`
}

// MCPServers holds each open project's MCP servers (mcpclient): their tools join that project's registry
// (workspace.Extension), and Settings shows their status. They start when the project is first asked for its
// tools, and end when the project closes.
type MCPServers struct {
	set   *workspace.Set
	store *settings.Store
	emit  func(name string, data any)

	// The user's secrets (${keyring:NAME} in a server's entry) and OAuth grants: shared by every project, never
	// in one; in the system keyring where one answers, opened on first use the way the CLI opens them.
	keysOnce sync.Once
	keys     mcpclient.Keys
	keysErr  error
	// open shows an authorization URL to the user: the system browser (nil: xdg-open).
	open func(ctx context.Context, url string) error
	// settle bounds Settled's wait (0: settleWait).
	settle time.Duration
}

// state opens the secrets and grants on first use (mcpclient.OpenUserKeys); nil, nil with no data folder.
func (x *MCPServers) state() (mcpclient.SecretStore, mcpclient.Grants) {
	x.keysOnce.Do(func() {
		x.keys, x.keysErr = mcpclient.OpenUserKeys(context.Background())
		switch {
		case x.keysErr != nil:
			slog.Warn("no folder to keep MCP servers' secrets in", "err", x.keysErr)
		case !x.keys.Where.Keyring:
			slog.Info("MCP servers' secrets are kept in a file", "path", x.keys.Where.Path, "reason", x.keys.Where.Reason)
		}
		if x.keys.Problem != "" {
			slog.Warn("moving MCP servers' secrets into the keyring", "err", x.keys.Problem)
		}
	})
	return x.keys.Secrets, x.keys.Grants
}

// SecretStorage says where the MCP servers' secrets and sign-ins are kept, in the words Settings uses for the API
// keys: the system keyring, or the secrets file and why.
func (x *MCPServers) SecretStorage() (KeyStorage, error) {
	x.state()
	if x.keysErr != nil {
		return KeyStorage{}, reject(tool.Errorf(tool.CodeInternal, "no data folder here to keep secrets in: %v", x.keysErr))
	}
	w := x.keys.Where
	ks := KeyStorage{Keyring: w.Keyring, Name: w.Name, Reason: w.Reason, Problem: x.keys.Problem}
	if !w.Keyring {
		ks.Name = keystore.Shown(w.Path)
	}
	return ks, nil
}

// openBrowser opens url in the user's browser (xdg-open), not waiting for it.
func openBrowser(_ context.Context, url string) error {
	cmd := exec.Command("xdg-open", url)
	if err := cmd.Start(); err != nil {
		return err
	}
	go func() { _ = cmd.Wait() }()
	return nil
}

// extend gives a newly opened workspace its servers (workspace.Options.Extend). Apart from MCPServers, whose
// exported methods are the window's to call: the webview neither lists tool values nor ends servers.
func (x *MCPServers) extend(id, root string) workspace.Extension {
	return &projectServers{x: x, id: id, root: root}
}

// projectServers are one open project's servers: their manager, replaced by a restart, ended with the project.
type projectServers struct {
	x        *MCPServers
	id, root string

	mu     sync.Mutex
	m      *mcpclient.Manager
	closed bool
}

// current is the project's manager, started on first use; nil once the project has closed.
func (p *projectServers) current() *mcpclient.Manager {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil
	}
	if p.m == nil {
		secrets, grants := p.x.state()
		opts := mcpclient.Options{
			Root: p.root, Settings: p.x.store, Version: version.Version, Grants: grants, Proxy: serverProxy(),
			OnChange: func() {
				if p.x.emit != nil {
					p.x.emit(EventMCPServers, MCPServersChanged{Workspace: p.id, Root: p.root})
				}
			},
		}
		if secrets != nil {
			opts.Secrets = secrets
		}
		p.m = mcpclient.New(opts)
		p.m.Start()
	}
	return p.m
}

// DynamicTools lists the tools of the project's servers connected now (tool.Dynamic).
func (p *projectServers) DynamicTools() []*tool.Tool {
	if m := p.current(); m != nil {
		return m.DynamicTools()
	}
	return nil
}

// DynamicTool returns a tool of the project's servers (tool.Dynamic).
func (p *projectServers) DynamicTool(name string) (*tool.Tool, bool) {
	if m := p.current(); m != nil {
		return m.DynamicTool(name)
	}
	return nil, false
}

// restart ends the servers; the next use starts them with the settings as they are then.
func (p *projectServers) restart() {
	p.mu.Lock()
	old := p.m
	p.m = nil
	p.mu.Unlock()
	if old != nil {
		_ = old.Close()
	}
}

// Close ends the servers for good (the project closed).
func (p *projectServers) Close() error {
	p.mu.Lock()
	m := p.m
	p.m, p.closed = nil, true
	p.mu.Unlock()
	if m != nil {
		return m.Close()
	}
	return nil
}

// servers are the servers of open project id.
func (x *MCPServers) servers(id string) (*projectServers, error) {
	w, err := open(x.set, id)
	if err != nil {
		return nil, err
	}
	p, ok := w.Extension().(*projectServers)
	if !ok {
		return nil, reject(tool.Errorf(tool.CodeInternal, "project %s has no MCP client", id))
	}
	return p, nil
}

// Status lists project id's servers with their state: starting, connected with its tools, failed with why and the
// end of its error output.
func (x *MCPServers) Status(id string) ([]mcpclient.Status, error) {
	p, err := x.servers(id)
	if err != nil {
		return nil, err
	}
	if m := p.current(); m != nil {
		return m.Status(), nil
	}
	return []mcpclient.Status{}, nil
}

// settleWait bounds how long a request waits for servers still starting: as long as an agent CLI waits for its
// servers before its first turn; a server slower than that joins the tool list when it connects.
const settleWait = 10 * time.Second

// Settled waits until none of project id's servers is still starting (at most settleWait) and answers their state.
// The window asks before each request, so one sent just after the project opened or its servers restarted goes to
// the model with their tools rather than without them.
func (x *MCPServers) Settled(id string) ([]mcpclient.Status, error) {
	p, err := x.servers(id)
	if err != nil {
		return nil, err
	}
	m := p.current()
	if m == nil {
		return []mcpclient.Status{}, nil
	}
	wait := settleWait
	if x.settle > 0 {
		wait = x.settle
	}
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	m.Wait(ctx)
	return m.Status(), nil
}

// Restart ends project id's servers and starts them again, with the settings as they are now.
func (x *MCPServers) Restart(id string) ([]mcpclient.Status, error) {
	p, err := x.servers(id)
	if err != nil {
		return nil, err
	}
	p.restart()
	return x.Status(id)
}

// Config is project id's mcp_servers as JSON text, for Settings to edit ("{}" for none).
func (x *MCPServers) Config(id string) (string, error) {
	p, err := x.servers(id)
	if err != nil {
		return "", err
	}
	if x.store == nil {
		return "{}", nil
	}
	proj, err := x.store.Project(p.root)
	if err != nil {
		return "", reject(tool.Errorf(tool.CodeInternal, "reading settings: %v", err))
	}
	if len(proj.MCPServers) == 0 {
		return "{}", nil
	}
	b, err := json.MarshalIndent(proj.MCPServers, "", "  ")
	if err != nil {
		return "", reject(tool.Errorf(tool.CodeInternal, "%v", err))
	}
	return string(b), nil
}

// SaveConfig replaces project id's mcp_servers with text (mcpclient.ParseServers checks it first; a mistake is
// invalid_argument and changes nothing), and starts the servers again with it.
func (x *MCPServers) SaveConfig(id, text string) ([]mcpclient.Status, error) {
	p, err := x.servers(id)
	if err != nil {
		return nil, err
	}
	if x.store == nil {
		return nil, reject(tool.Errorf(tool.CodeInternal, "no settings file here (no config directory)"))
	}
	servers, err := mcpclient.ParseServers([]byte(text))
	if err != nil {
		return nil, reject(&tool.Error{Code: tool.CodeInvalidArgument, Field: "mcp_servers", Message: err.Error()})
	}
	if err := x.store.UpdateProject(p.root, func(q *settings.Project) error {
		q.MCPServers = servers
		q.PruneServerHosts() // a server removed takes its hosts with it: a later one of its name starts with none
		return nil
	}); err != nil {
		return nil, reject(tool.Errorf(tool.CodeInternal, "saving settings: %v", err))
	}
	return x.Restart(id)
}

// AllowHost lets project id's MCP server name reach host (a host name, or "*.parent") besides the project's hosts,
// in allow-list mode: the server's proxy alone, from its next connection, with no restart; the project's commands
// and its other servers are still refused it. It is kept in the user's settings, never in the project. A host that
// is not one is invalid_argument, a server the project does not name not_found; either changes nothing.
func (x *MCPServers) AllowHost(id, name, host string) ([]mcpclient.Status, error) {
	return x.changeHosts(id, func(q *settings.Project) error {
		_, err := q.AllowServerHost(name, host)
		switch {
		case errors.Is(err, settings.ErrNoSuchServer):
			return &tool.Error{Code: tool.CodeNotFound, Field: "server", Message: fmt.Sprintf("this project's settings name no MCP server %q", name)}
		case err != nil:
			return &tool.Error{Code: tool.CodeInvalidArgument, Field: "host", Message: err.Error()}
		}
		return nil
	})
}

// RemoveHost takes host off the hosts project id's MCP server name may reach besides the project's, from the
// server's next connection; a host not allowed for it changes nothing.
func (x *MCPServers) RemoveHost(id, name, host string) ([]mcpclient.Status, error) {
	return x.changeHosts(id, func(q *settings.Project) error {
		q.RemoveServerHost(name, host)
		return nil
	})
}

// changeHosts changes project id's settings with change, under the store's lock, and answers the servers' status.
func (x *MCPServers) changeHosts(id string, change func(*settings.Project) error) ([]mcpclient.Status, error) {
	p, err := x.servers(id)
	if err != nil {
		return nil, err
	}
	if x.store == nil {
		return nil, reject(tool.Errorf(tool.CodeInternal, "no settings file here (no config directory)"))
	}
	if err := x.store.UpdateProject(p.root, change); err != nil {
		var te *tool.Error
		if errors.As(err, &te) {
			return nil, reject(te)
		}
		return nil, reject(tool.Errorf(tool.CodeInternal, "saving settings: %v", err))
	}
	return x.Status(id)
}

// SignIn signs the user in to project id's HTTP server name with OAuth in the system browser, and waits for the
// sign-in to end (at most mcpclient.SignInTimeout); the server then starts with the grant, which every project
// naming the same URL shares.
func (x *MCPServers) SignIn(id, name string) ([]mcpclient.Status, error) {
	p, err := x.servers(id)
	if err != nil {
		return nil, err
	}
	m := p.current()
	if m == nil {
		return nil, reject(tool.Errorf(tool.CodeNotFound, "project %s is closed", id))
	}
	open := x.open
	if open == nil {
		open = openBrowser
	}
	if err := m.SignIn(context.Background(), name, open); err != nil {
		return nil, reject(&tool.Error{Code: tool.CodeServerFailed, Message: err.Error(), Details: map[string]any{"server": name}})
	}
	return m.Status(), nil
}

// SignOut forgets the user's OAuth grant for project id's HTTP server name.
func (x *MCPServers) SignOut(id, name string) ([]mcpclient.Status, error) {
	p, err := x.servers(id)
	if err != nil {
		return nil, err
	}
	m := p.current()
	if m == nil {
		return nil, reject(tool.Errorf(tool.CodeNotFound, "project %s is closed", id))
	}
	if err := m.SignOut(name); err != nil {
		return nil, reject(tool.Errorf(tool.CodeInvalidArgument, "%v", err))
	}
	return m.Status(), nil
}

// SecretNames lists the names of the secrets stored for servers' entries (${keyring:NAME}); never their values.
func (x *MCPServers) SecretNames() ([]string, error) {
	secrets, _ := x.state()
	if secrets == nil {
		return []string{}, nil
	}
	names, err := secrets.SecretNames()
	if err != nil {
		return nil, reject(tool.Errorf(tool.CodeInternal, "reading the secrets: %v", err))
	}
	return names, nil
}

// SetSecret stores value as the secret name, for servers' entries to name as ${keyring:name}; an empty value
// removes it. Servers read it when they start: saving restarts none.
func (x *MCPServers) SetSecret(name, value string) ([]string, error) {
	secrets, _ := x.state()
	if secrets == nil {
		return nil, reject(tool.Errorf(tool.CodeInternal, "no data folder here to keep secrets in"))
	}
	if err := secrets.SetSecret(name, value); err != nil {
		return nil, reject(&tool.Error{Code: tool.CodeInvalidArgument, Field: "name", Message: err.Error()})
	}
	return x.SecretNames()
}
