package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/rooted-dev/rooted/backend/sandbox"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/shell"
	"github.com/rooted-dev/rooted/backend/tool"
)

// server is one configured server and, while it runs, its process and session. A connection that ended (the
// process died, a call timed out) is dropped, and the next call starts the server afresh.
type server struct {
	name string
	m    *Manager

	mu       sync.Mutex
	state    string // "", starting, connected, failed
	err      string
	conn     *conn
	settled  chan struct{} // closed when the connect in progress ends; nil when none is
	stderr   *tail
	info     *sandbox.Info
	dataDir  string
	protocol string
	legacy   bool // the server ended on the 2026 probe: it is asked with initialize alone
	signIn   bool // its last connect failed for want of a sign-in
	refused  refusals
}

// conn is one run of a server: its process (nil over HTTP), its session and the tools it listed.
type conn struct {
	proc    *shell.Stdio
	session *mcp.ClientSession
	timeout time.Duration

	mu    sync.Mutex
	tools []*tool.Tool
	names map[string]string // our name -> the server's
}

// ensure connects the server unless it is connected, or waits for the connect in progress.
func (s *server) ensure(ctx context.Context) {
	if s.begin() {
		s.finish()
		return
	}
	s.waitSettled(ctx)
}

// begin marks the server starting and reports whether the caller is to connect it (finish): false when it is
// connected or being connected already.
func (s *server) begin() bool {
	s.mu.Lock()
	if s.conn != nil || s.settled != nil || s.m.isClosed() {
		s.mu.Unlock()
		return false
	}
	s.settled = make(chan struct{})
	s.state, s.err = "starting", ""
	s.stderr = newTail(StderrTail)
	s.mu.Unlock()
	s.m.changed()
	return true
}

// finish connects the server begin marked starting; a failure names the hosts its proxy refused meanwhile (npx
// that could not reach a registry the project does not list).
func (s *server) finish() {
	mark := s.refused.mark()
	c, err := s.connect()
	if err != nil {
		if note := refusedNote("while it started", s.name, s.refused.since(mark)); note != "" {
			err = fmt.Errorf("%w; %s", err, note)
		}
	}
	s.mu.Lock()
	s.signIn = errors.Is(err, ErrSignIn)
	if err != nil {
		s.state, s.err = "failed", err.Error()
	} else if s.m.isClosed() {
		go c.close()
		s.state = ""
	} else {
		s.conn, s.state = c, "connected"
		go s.watch(c)
	}
	close(s.settled)
	s.settled = nil
	s.mu.Unlock()
	s.m.changed()
}

// watch drops the connection when the server's process ends or the session breaks, so the next call starts it
// afresh, and fails the calls waiting on it at once.
func (s *server) watch(c *conn) {
	var procDone <-chan struct{}
	if c.proc != nil {
		procDone = c.proc.Done()
	}
	sessionDone := make(chan struct{})
	go func() { _ = c.session.Wait(); close(sessionDone) }()
	select {
	case <-procDone:
		// Ended on its own (a deliberate stop has taken c away from s already, and drop leaves s be).
		s.drop(c, fmt.Sprintf("it exited (%s); it starts again at the next call", exitText(c.proc.Err())))
	case <-sessionDone:
		s.drop(c, "")
	}
}

// drop ends connection c if it is still the server's; why, when set, is the failure its status shows.
func (s *server) drop(c *conn, why string) {
	s.mu.Lock()
	if s.conn == c {
		s.conn = nil
		s.state = ""
		if why != "" {
			s.state, s.err = "failed", why
		}
	}
	s.mu.Unlock()
	c.close()
	s.m.changed()
}

func (s *server) stop() {
	s.mu.Lock()
	c := s.conn
	s.conn = nil
	if s.state == "connected" {
		s.state = ""
	}
	s.mu.Unlock()
	if c != nil {
		c.close()
	}
}

func (c *conn) close() {
	_ = c.session.Close()
	if c.proc != nil {
		c.proc.Stop()
	}
}

func (s *server) waitSettled(ctx context.Context) {
	s.mu.Lock()
	wait := s.settled
	s.mu.Unlock()
	if wait == nil {
		return
	}
	select {
	case <-wait:
	case <-ctx.Done():
	}
}

// legacyVersion is what the client asks for in initialize, without the server/discover probe first, of a server
// that ended on the probe.
const legacyVersion = "2025-11-25"

// connect starts the server as its settings say, and lists its tools. The go-sdk client probes with
// server/discover (2026-07-28) and falls back to initialize on an error answer; a server of the earlier era that
// instead exits on a method it does not know is started again and asked with initialize alone, and is asked so from
// then on.
func (s *server) connect() (*conn, error) {
	proj, err := s.m.config()
	if err != nil {
		return nil, fmt.Errorf("reading the settings: %w", err)
	}
	cfg, ok := proj.MCPServers[s.name]
	if !ok {
		return nil, fmt.Errorf("no server %q in this project's settings", s.name)
	}
	s.mu.Lock()
	legacy := s.legacy
	s.mu.Unlock()
	c, ended, err := s.connectAs(proj, cfg, legacy)
	if err != nil && ended && !legacy && cfg.Command != "" {
		if c, _, err = s.connectAs(proj, cfg, true); err == nil {
			s.mu.Lock()
			s.legacy = true
			s.mu.Unlock()
		}
	}
	return c, err
}

// connectAs is one start of the server, with the probe or (legacy) initialize alone; ended says the server's
// process ended during the handshake.
func (s *server) connectAs(proj settings.Project, cfg settings.MCPServer, legacy bool) (c *conn, ended bool, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), ConnectTimeout)
	defer cancel()
	c = &conn{timeout: DefaultCallTimeout}
	if cfg.TimeoutMS > 0 {
		c.timeout = time.Duration(cfg.TimeoutMS) * time.Millisecond
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "rooted", Version: s.m.opts.Version}, &mcp.ClientOptions{
		// No roots, sampling or elicitation: a server learns nothing of the user's machine from Rooted, and asks
		// the user nothing behind the approval card.
		Capabilities: &mcp.ClientCapabilities{},
		ToolListChangedHandler: func(_ context.Context, req *mcp.ToolListChangedRequest) {
			go s.refresh(c, req.Session)
		},
	})
	transport, err := s.transport(ctx, c, proj, cfg)
	if err != nil {
		return nil, false, err
	}
	var opts *mcp.ClientSessionOptions
	if legacy {
		opts = &mcp.ClientSessionOptions{ProtocolVersion: legacyVersion}
	}
	session, err := connectUntilEnd(ctx, client, transport, c.proc, opts)
	if err != nil {
		if c.proc != nil {
			// Its output closes a moment before it is reaped: a server on its way out is given that moment.
			select {
			case <-c.proc.Done():
				ended = true
			case <-time.After(time.Second):
			}
			c.proc.Stop()
		}
		return nil, ended, s.needs(err, cfg, proj)
	}
	c.session = session
	if r := session.InitializeResult(); r != nil {
		s.mu.Lock()
		s.protocol = r.ProtocolVersion
		s.mu.Unlock()
	}
	if err := s.list(ctx, c, session); err != nil {
		c.close()
		return nil, false, s.needs(err, cfg, proj)
	}
	return c, false, nil
}

// transport starts the server's program in the sandbox (c.proc), or reaches its URL.
func (s *server) transport(ctx context.Context, c *conn, proj settings.Project, cfg settings.MCPServer) (mcp.Transport, error) {
	switch {
	case cfg.URL != "" && cfg.Command != "":
		return nil, errors.New(`its entry names both a "command" and a "url"; keep one`)
	case cfg.URL != "":
		return s.httpTransport(cfg)
	case cfg.Command != "":
		spec, dataDir, err := s.m.stdioSpec(s.name, cfg, proj, s.refusedRecord)
		if err != nil {
			return nil, err
		}
		spec.Stderr = s.stderr
		s.mu.Lock()
		s.info, s.dataDir = &spec.Sandbox, dataDir
		s.mu.Unlock()
		proc, err := shell.StartStdio(ctx, spec)
		if err != nil {
			return nil, s.needs(err, cfg, proj)
		}
		c.proc = proc
		return &mcp.IOTransport{Reader: proc.Stdout, Writer: proc.Stdin, MaxLineLength: MaxMessage}, nil
	}
	return nil, errors.New(`its entry names neither a "command" nor a "url"`)
}

// connectUntilEnd is client.Connect, given up as soon as the server's process ends (a server that exits at once
// fails in milliseconds, not at the connect timeout).
func connectUntilEnd(ctx context.Context, client *mcp.Client, t mcp.Transport, proc *shell.Stdio, opts *mcp.ClientSessionOptions) (*mcp.ClientSession, error) {
	if proc == nil {
		return client.Connect(ctx, t, opts)
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	go func() {
		select {
		case <-proc.Done():
			cancel(fmt.Errorf("the server exited before it answered (%v)", exitText(proc.Err())))
		case <-ctx.Done():
		}
	}()
	cs, err := client.Connect(ctx, t, opts)
	if err != nil && context.Cause(ctx) != nil && !errors.Is(context.Cause(ctx), context.Canceled) {
		return nil, context.Cause(ctx)
	}
	return cs, err
}

func exitText(err error) string {
	if err == nil {
		return "exit status 0"
	}
	return err.Error()
}

// list reads the server's tools (every page) into c.
func (s *server) list(ctx context.Context, c *conn, cs *mcp.ClientSession) error {
	var tools []*tool.Tool
	names := map[string]string{}
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return fmt.Errorf("listing its tools: %w", err)
		}
		name := ToolName(s.name, t.Name)
		if _, dup := names[name]; dup {
			continue
		}
		ft, err := s.foreign(c, name, t)
		if err != nil {
			continue // a tool whose schema is not an object cannot be called with arguments; leave it out
		}
		names[name] = t.Name
		tools = append(tools, ft)
	}
	c.mu.Lock()
	c.tools, c.names = tools, names
	c.mu.Unlock()
	return nil
}

// refresh re-reads the tools after the server said they changed.
func (s *server) refresh(c *conn, cs *mcp.ClientSession) {
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	defer cancel()
	if s.list(ctx, c, cs) == nil {
		s.m.changed()
	}
}

// foreign declares the server's tool t to the registry as name.
func (s *server) foreign(c *conn, name string, t *mcp.Tool) (*tool.Tool, error) {
	var schema *jsonschema.Schema
	if t.InputSchema != nil {
		b, err := json.Marshal(t.InputSchema)
		if err != nil {
			return nil, err
		}
		schema = &jsonschema.Schema{}
		if err := json.Unmarshal(b, schema); err != nil {
			return nil, err
		}
	}
	title := t.Title
	if title == "" && t.Annotations != nil {
		title = t.Annotations.Title
	}
	if title == "" {
		title = t.Name
	}
	destructive := t.Annotations == nil || t.Annotations.DestructiveHint == nil || *t.Annotations.DestructiveHint
	spec := tool.Spec{
		Name: name, Title: title + " (" + s.name + ")", InputSchema: schema, Destructive: destructive,
		Description: fmt.Sprintf("%s\n\n(Tool %q of the MCP server %q, which the user added to this project.)", strings.TrimSpace(t.Description), t.Name, s.name),
		Narrow:      "ask the tool for less",
	}
	remote := t.Name
	return tool.Foreign(spec, func(ctx context.Context, args json.RawMessage) (any, error) {
		return s.call(ctx, remote, args)
	}, decodeResult)
}

func (s *server) currentTools() []*tool.Tool {
	s.mu.Lock()
	c := s.conn
	s.mu.Unlock()
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.tools
}

func (s *server) lookup(name string) (*tool.Tool, bool) {
	for _, t := range s.currentTools() {
		if t.Spec().Name == name {
			return t, true
		}
	}
	s.mu.Lock()
	failed := s.state == "failed"
	why := s.err
	s.mu.Unlock()
	if !failed {
		return nil, false
	}
	// A server that failed still answers for its tools' names, with why it failed.
	t, err := tool.Foreign(tool.Spec{Name: name, Title: name, Description: "(unavailable: " + why + ")"}, func(context.Context, json.RawMessage) (any, error) {
		return nil, s.failure("the MCP server %q is not running: %s", s.name, why)
	}, decodeResult)
	return t, err == nil
}

// call runs the server's tool remote, starting the server first when it is not running; the hosts its proxy
// refused meanwhile are told with the result (withRefused).
func (s *server) call(ctx context.Context, remote string, args json.RawMessage) (any, error) {
	mark := s.refused.mark()
	out, err := s.callOnce(ctx, remote, args)
	return s.withRefused(out, err, mark)
}

func (s *server) callOnce(ctx context.Context, remote string, args json.RawMessage) (any, error) {
	s.ensure(ctx)
	s.mu.Lock()
	c, why := s.conn, s.err
	s.mu.Unlock()
	if c == nil {
		return nil, s.failure("the MCP server %q is not running: %s", s.name, why)
	}
	callCtx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	res, err := c.session.CallTool(callCtx, &mcp.CallToolParams{Name: remote, Arguments: args})
	switch {
	case err == nil:
	case ctx.Err() != nil:
		return nil, ctx.Err() // the caller gave up; the server keeps running
	case errors.Is(err, ErrSignIn):
		// The grant was refused mid-session (revoked, or its refresh refused): the status offers the sign-in.
		why := fmt.Sprintf("%q %v: Sign in from its entry in Settings, MCP servers, or run rooted-mcp sign-in %s --root %s", s.name, ErrSignIn, s.name, s.m.opts.Root)
		s.mu.Lock()
		if s.conn == c {
			s.conn, s.state, s.err, s.signIn = nil, "failed", why, true
		}
		s.mu.Unlock()
		go c.close()
		s.m.changed()
		return nil, s.failure("the MCP server %s", why)
	case callCtx.Err() != nil:
		// A server that does not answer in time may never answer: it is ended, and started afresh next time.
		s.drop(c, "")
		return nil, s.failure("the MCP server %q did not answer %s within %s; it was stopped, and starts again at the next call", s.name, remote, c.timeout)
	default:
		s.mu.Lock()
		if s.conn == c {
			s.conn, s.state = nil, ""
		}
		s.mu.Unlock()
		go c.close()
		return nil, s.failure("the MCP server %q ended during the call of %s (%v); it starts again at the next call%s", s.name, remote, err, s.stderrNote())
	}
	return toResult(s.name, remote, res)
}

// failure is a server_failed error naming the server.
func (s *server) failure(format string, args ...any) *tool.Error {
	return &tool.Error{Code: tool.CodeServerFailed, Message: fmt.Sprintf(format, args...), Details: map[string]any{"server": s.name}}
}

func (s *server) stderrNote() string {
	if t := strings.TrimSpace(s.stderr.String()); t != "" {
		return "; its last error output: " + t
	}
	return ""
}

func (s *server) status(st *Status) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state != "" {
		st.State = s.state
	}
	st.Error, st.Protocol, st.Sandbox, st.DataDir = s.err, s.protocol, s.info, s.dataDir
	if s.signIn && s.state == "failed" {
		st.Auth = "sign_in"
	}
	if s.state != "failed" {
		st.Error = ""
	}
	if s.stderr != nil {
		st.Stderr = s.stderr.String()
	}
	if s.conn != nil {
		s.conn.mu.Lock()
		for _, t := range s.conn.tools {
			st.Tools = append(st.Tools, t.Spec().Name)
		}
		s.conn.mu.Unlock()
	}
}

func (m *Manager) isClosed() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.closed
}

// needs is a failure to start, saying what the sandbox withheld that the server may need and how to grant it.
func (s *server) needs(err error, cfg settings.MCPServer, proj settings.Project) error {
	msg := err.Error() + s.stderrNote()
	if cfg.Command == "" {
		if errors.Is(err, ErrSignIn) {
			// Kept an ErrSignIn, so that the status offers the sign-in.
			return fmt.Errorf("%q %w: Sign in from its entry in Settings, MCP servers, or run rooted-mcp sign-in %s --root %s", s.name, ErrSignIn, s.name, s.m.opts.Root)
		}
		return errors.New(msg)
	}
	var grants []string
	switch {
	case cfg.Network || proj.Network.On():
	case proj.Network == settings.NetworkAllowlist && s.m.opts.Proxy != nil:
		// It had the project's listed hosts, through the proxy: what it was refused is named above, by host.
		grants = append(grants, `"network": true (it reached only the hosts this project lists: allow the refused ones for this server in Settings, MCP servers, or give it the whole network)`)
	default:
		grants = append(grants, `"network": true (it had no network; npx and uvx download packages)`)
	}
	if !cfg.WriteProject {
		grants = append(grants, `"write_project": true (it could read the project, not change it)`)
	}
	grants = append(grants, `"readable": ["/a/folder"] (it could read the project, the system's and the toolchains' folders only)`)
	return fmt.Errorf("%s. It ran in Rooted's sandbox; if it needs more, grant it in the %q entry of this project's mcp_servers in Rooted's settings: %s", msg, s.name, strings.Join(grants, "; "))
}
