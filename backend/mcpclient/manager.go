// Package mcpclient lets the agent use other MCP servers' tools in a project: the servers the user's settings name
// for it (settings.MCPServer, never the project's own files), each started when the project opens or at its first
// call, its tools offered as mcp__<server>__<tool> with their schemas beside Rooted's own (tool.Dynamic).
//
// Guarantees: a server that is a program runs in Rooted's sandbox (backend/shell) with the environment commands get:
// it reads the project, the system's and the toolchains' folders, writes only a data folder of its own keyed by the
// project and its name (and the project only when the user grants it), and connects only where the project's
// commands may, and in allow-list mode to the hosts the user allowed for that server alone (never for the project's
// commands), unless the user grants it the network. A call that the server does not answer, because it ended or
// hung, fails with server_failed within the call's time (the server's end is noticed at once, a hang at the
// timeout), and the server is started afresh at the next call. A message larger than MaxMessage ends the server;
// its error output is kept to its last StderrTail bytes; a result's text is cut to MaxResultText. Close ends every
// server of the project. A server's tool is never read-only to the registry: its own readOnlyHint cannot spare a
// call the user's approval.
//
// What a server's entry names by name comes from the user, never the project: the variables of env_vars and ${NAME}
// references pass to that server alone, past the credential table that holds for every other; ${keyring:NAME} is
// read from the key store (Secrets). An HTTP server that asks for OAuth is never signed in to behind the user's
// back: its status asks for SignIn, which runs the authorization-code flow with PKCE in the user's browser and
// stores the grant (Grants) outside every project, renewed with its refresh token.
//
// Both protocol eras: the go-sdk client asks server/discover (2026-07-28) first and falls back to initialize (the
// 2025 versions) on any other answer; a server's tools/list_changed notification (or its subscription in the 2026
// era) re-reads its tools.
package mcpclient

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/rooted-dev/rooted/backend/sandbox"

	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/shell"
	"github.com/rooted-dev/rooted/backend/tool"
)

// Limits.
const (
	// MaxMessage bounds one message from a server; a larger one ends the server (the transport stops reading).
	MaxMessage = 8 << 20
	// MaxResultText bounds the text of one result, as built-in tools bound theirs (web_fetch's 100 KB a call).
	MaxResultText = 100 << 10
	// StderrTail is how much of a server's error output is kept for its status.
	StderrTail = 4 << 10
	// DefaultCallTimeout bounds a call of a server whose settings name no timeout.
	DefaultCallTimeout = 60 * time.Second
	// ConnectTimeout bounds a server's start up to its tools listed (npx may download the package first).
	ConnectTimeout = 60 * time.Second
)

// Options say which project a Manager serves and with what.
type Options struct {
	// Root is the project's absolute path, as the settings key it.
	Root string
	// Settings holds the user's settings; nil: no servers.
	Settings *settings.Store
	// SecretEnv names variables of this process that servers must not see (the app's own keys), besides those
	// cmdenv.Environ recognises.
	SecretEnv []string
	// DataDir holds each server's private folder, under a folder per project; "" is Rooted's cache folder's
	// mcp-servers.
	DataDir string
	// Version is Rooted's, sent to servers as the client's.
	Version string
	// Probe finds the sandbox for a policy (sandbox.Probe when nil); tests turn the namespaces off with it.
	Probe func(sandbox.Policy) sandbox.Info
	// OnChange, when set, hears of every change of a server's status or tools.
	OnChange func()
	// Secrets resolves ${keyring:NAME} in a server's env and headers; nil: none can be.
	Secrets Secrets
	// LookupEnv reads the user's environment for ${NAME} and env_vars (os.LookupEnv when nil).
	LookupEnv func(string) (string, bool)
	// Grants keeps the user's OAuth grants for HTTP servers; nil: a server that asks for OAuth fails.
	Grants Grants
	// ClientIDMetadataURL is Rooted's published Client ID Metadata Document (an https URL), offered first to an
	// authorization server that takes one; "": dynamic registration only.
	ClientIDMetadataURL string
	// HTTPClient reaches HTTP servers and authorization servers (http.DefaultClient's transport when nil).
	HTTPClient *http.Client
	// Proxy makes the proxy of a program server in a project in allow-list mode (HTTPProxy: no one is asked, the
	// project's lists are read at every connection, and what it refuses is recorded for the server's status);
	// nil: such a server has no network, as before allow-list mode.
	Proxy func(ProxyRules) shell.Proxy
}

// Manager holds the MCP servers of one project.
type Manager struct {
	opts Options

	mu      sync.Mutex
	servers map[string]*server
	closed  bool
}

// New returns the manager of the project opts.Root; no server starts before Start or a call.
func New(opts Options) *Manager {
	if opts.Probe == nil {
		opts.Probe = sandbox.Probe
	}
	if opts.LookupEnv == nil {
		opts.LookupEnv = os.LookupEnv
	}
	if opts.DataDir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			base = os.TempDir()
		}
		opts.DataDir = filepath.Join(base, "rooted", "mcp-servers")
	}
	return &Manager{opts: opts, servers: map[string]*server{}}
}

// config reads the project's settings: its servers, and what commands get that servers get too.
func (m *Manager) config() (settings.Project, error) {
	if m.opts.Settings == nil {
		return settings.Project{}, nil
	}
	return m.opts.Settings.Project(m.opts.Root)
}

// Start starts every enabled server the settings name, in the background; Wait waits for them.
func (m *Manager) Start() {
	proj, err := m.config()
	if err != nil {
		return
	}
	for _, name := range sortedNames(proj.MCPServers) {
		if proj.MCPServers[name].Disabled {
			continue
		}
		if s := m.server(name); s != nil && s.begin() {
			go s.finish() // begun here, so that a Wait that follows waits for it
		}
	}
}

// Wait waits until no server is starting, or ctx ends.
func (m *Manager) Wait(ctx context.Context) {
	for _, s := range m.list() {
		s.waitSettled(ctx)
	}
}

// server returns the named server's holder, made on first use; nil once the manager is closed.
func (m *Manager) server(name string) *server {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil
	}
	s, ok := m.servers[name]
	if !ok {
		s = &server{name: name, m: m}
		m.servers[name] = s
	}
	return s
}

func (m *Manager) list() []*server {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]*server, 0, len(m.servers))
	for _, name := range sortedNames(m.servers) {
		out = append(out, m.servers[name])
	}
	return out
}

// DynamicTools lists the tools of the servers connected now (tool.Dynamic).
func (m *Manager) DynamicTools() []*tool.Tool {
	var out []*tool.Tool
	for _, s := range m.list() {
		out = append(out, s.currentTools()...)
	}
	return out
}

// DynamicTool returns the tool named mcp__<server>__<tool>, starting its server first if it is not running
// (tool.Dynamic). A server that cannot start still yields a tool, whose call fails with why: the model and the user
// read the reason rather than "unknown tool".
func (m *Manager) DynamicTool(name string) (*tool.Tool, bool) {
	rest, ok := strings.CutPrefix(name, Prefix)
	if !ok {
		return nil, false
	}
	proj, err := m.config()
	if err != nil {
		return nil, false
	}
	for _, srv := range sortedNames(proj.MCPServers) {
		if !strings.HasPrefix(rest, toolNamePart(srv)+"__") || proj.MCPServers[srv].Disabled {
			continue
		}
		s := m.server(srv)
		if s == nil {
			return nil, false
		}
		ctx, cancel := context.WithTimeout(context.Background(), ConnectTimeout)
		s.ensure(ctx)
		cancel()
		if t, ok := s.lookup(name); ok {
			return t, true
		}
	}
	return nil, false
}

// Status is one server's state, for the window's Settings and rooted tools.
type Status struct {
	Name string `json:"name"`
	// State is "starting", "connected", "failed" or "stopped" (not started yet, or ended and to be started afresh
	// at the next call).
	State string `json:"state"`
	// Transport is "stdio" or "http"; Protocol the protocol version agreed.
	Transport string   `json:"transport"`
	Protocol  string   `json:"protocol,omitempty"`
	Tools     []string `json:"tools,omitempty"`
	// Error says why the server failed, with what it needs to be granted when that is the likely cause.
	Error string `json:"error,omitempty"`
	// Auth is an HTTP server's OAuth: "sign_in" when it asked for a sign-in that no stored grant answers (SignIn),
	// "signed_in" when a grant for its URL is stored.
	Auth string `json:"auth,omitempty"`
	// Stderr is the last of the server's error output.
	Stderr string `json:"stderr,omitempty"`
	// Sandbox is where a program runs: what it may read and write, and the network.
	Sandbox *sandbox.Info `json:"sandbox,omitempty"`
	// DataDir is the server's private folder, its HOME.
	DataDir string `json:"data_dir,omitempty"`
	// RefusedHosts are the hosts its proxy refused in allow-list mode (at most MaxRefusedHosts, the most recent
	// first), but those it may reach now: why a tool that needs the network fails.
	RefusedHosts []RefusedHost `json:"refused_hosts,omitempty"`
	// AllowedHosts are the hosts allowed for this server alone, besides the project's (settings.Project
	// MCPServerHosts): its proxy reaches them in allow-list mode, the project's commands never.
	AllowedHosts []string `json:"allowed_hosts,omitempty"`
}

// Status lists every server the settings name, with its state.
func (m *Manager) Status() []Status {
	proj, _ := m.config()
	out := make([]Status, 0, len(proj.MCPServers))
	for _, name := range sortedNames(proj.MCPServers) {
		cfg := proj.MCPServers[name]
		st := Status{Name: name, State: "stopped", Transport: "stdio", AllowedHosts: proj.MCPServerHosts[name]}
		if cfg.URL != "" {
			st.Transport = "http"
		}
		if cfg.Disabled {
			st.State = "disabled"
		}
		if cfg.URL != "" && m.opts.Grants != nil {
			if g, _ := m.opts.Grants.Grant(cfg.URL); g != nil {
				st.Auth = "signed_in"
			}
		}
		m.mu.Lock()
		s := m.servers[name]
		m.mu.Unlock()
		if s != nil {
			s.status(&st)
			st.RefusedHosts = s.refused.shown(proj.ServerHosts(name), proj.DeniedHosts())
		}
		out = append(out, st)
	}
	return out
}

// Close ends every server of the project and refuses to start more.
func (m *Manager) Close() error {
	m.mu.Lock()
	m.closed = true
	servers := make([]*server, 0, len(m.servers))
	for _, s := range m.servers {
		servers = append(servers, s)
	}
	m.mu.Unlock()
	var wg sync.WaitGroup
	for _, s := range servers {
		wg.Go(s.stop)
	}
	wg.Wait()
	return nil
}

func (m *Manager) resolver() resolver {
	return resolver{lookupEnv: m.opts.LookupEnv, secrets: m.opts.Secrets}
}

func (m *Manager) changed() {
	if m.opts.OnChange != nil {
		m.opts.OnChange()
	}
}

func sortedNames[V any](m map[string]V) []string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}
