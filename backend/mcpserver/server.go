// Package mcpserver serves Rooted's tool registry over the Model Context Protocol (the official Go SDK), so other
// agents get the same scoped tools with the same guarantees: every tool from its one declaration (JSON schema,
// description with examples, annotations and outputSchema), every path resolved inside the project root through
// os.Root. A result's text block is its text form for models (numbered lines, path:line:text, ...) and its
// structuredContent the result's fields, without those the text carries whole.
//
// Tool failures are tool results with isError set, the error's text form ("error <code>: <message>") in the text
// block and its JSON ({code, message, path, ...}) in _meta under ErrorMeta; a malformed request stays a protocol
// error, and a malformed frame gets its JSON-RPC error reply (Transport). The project root is fixed
// with Options.Root, or else chosen by the client's MCP roots (the first file:// root; WORKSPACE_FOLDER_PATHS for
// clients that set it instead, as Cursor does), and follows the client when its roots change. There are no
// approvals over MCP: the allowlist and the sandbox apply as configured for the project; a client that wants a
// human in the loop asks its user itself.
//
// SEP-2577 deprecates MCP roots (protocol 2026-07-28) in favour of configuration and tool parameters. Rooted's
// replacement is configuration: --root, or the client's WORKSPACE_FOLDER_PATHS; a tool parameter cannot choose the
// project, since the project is the boundary the tools keep to. Roots keep working for the clients that send them
// through the deprecation window, in the few places marked for the linter.
//
// The tool list follows the user's settings while the server runs (listed.go): a tool that a setting turns on
// (web_search, with a search endpoint) comes into the list when the user saves it, and leaves it when they take it
// back, and connected clients are told notifications/tools/list_changed. A call to a tool not in the list now gets
// the tool's own error (not_configured, naming the setting).
package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rooted-dev/rooted/backend/netproxy/httpproxy"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rooted-dev/rooted/backend/index"
	"github.com/rooted-dev/rooted/backend/session"
	"github.com/rooted-dev/rooted/backend/tool"
	"github.com/rooted-dev/rooted/backend/tools"
	"github.com/rooted-dev/rooted/backend/webfetch"
	"github.com/rooted-dev/rooted/backend/webfetch/httpfetch"
	"github.com/rooted-dev/rooted/backend/workspace"
)

// Options configure a server.
type Options struct {
	// Root fixes the project root; empty lets the client's roots choose it.
	Root string
	// Version is reported to clients.
	Version string
	// Logger receives what the server has to say (stderr for stdio; never stdout, which is the protocol's).
	Logger *slog.Logger
	// MaxResultBytes caps every result's text block: 0 takes the cap from the client's name (budgets), a negative
	// value sends results whole.
	MaxResultBytes int
	// Started, when set, is called once the handshake is over: when the first answer is written, a tool is called
	// or holdAtMost has passed, whichever is first. The project's preparation begins then too.
	Started func()

	// prepare stands in for the tools' Prepare in tests.
	prepare func(session.Info)
	// holdAtMost replaces the const of that name in tests.
	holdAtMost time.Duration
	// web is web_fetch's fetcher in tests (one that reaches a local fixture server).
	web webfetch.Fetcher
}

// Server is one MCP server over one project at a time: a workspace, replaced by another when the client's roots
// change.
type Server struct {
	mcp *mcp.Server
	// registry declares the tools to the client and answers what their schemas say; calls go to the open
	// workspace's own registry, whose tools are the same.
	registry *tool.Registry
	fixed    bool
	log      *slog.Logger
	maxBytes int
	wsOpt    workspace.Options
	limit    index.MemoryLimit // the process's memory limit, from the open workspace's budget

	mu      sync.Mutex
	rootErr string               // why no project is open, for the no_project message
	ws      *workspace.Workspace // the open project; nil before one opens
	seq     int                  // workspaces opened, for their ids
	closing sync.WaitGroup       // workspaces replaced and being closed

	texts *texts // large text blocks on their way to the client (splice.go)

	// The project's preparation waits until the first answer is written, a tool is called or holdAtMost has
	// passed, whichever is first: reading a large tree's index and git index from the first millisecond doubled
	// the handshake's time (72 ms, against 48 ms held, 460k files, 2 cores).
	begin     chan struct{}
	beginOnce sync.Once
	holding   *time.Timer // releases at holdAtMost; stopped by Close
	started   func()      // Options.Started

	listed       listed // the tools declared now (listed.go)
	settingsPath string // the user's settings file, watched while the server runs; "" without a config directory
}

// New makes a server. With opt.Root set, that folder is opened now, and an error is returned if it cannot be.
func New(opt Options) (*Server, error) {
	log := opt.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	web := opt.web
	if web == nil {
		web = httpfetch.New(httpfetch.Options{})
	}
	s := &Server{fixed: opt.Root != "", log: log, texts: newTexts(), maxBytes: opt.MaxResultBytes, begin: make(chan struct{}), started: opt.Started}
	hold := holdAtMost
	if opt.holdAtMost > 0 {
		hold = opt.holdAtMost
	}
	s.holding = time.AfterFunc(hold, s.release)
	// As in the window: a live workspace, whose watcher keeps the index, the snapshots' staging and the stale-file
	// check current. ask_user's answer comes from the client's user by elicitation (ask.go).
	s.wsOpt = workspace.Options{Live: true, Ask: answered, Web: web, CommandProxy: httpproxy.ForCommands, Limit: &s.limit, Prepare: opt.prepare, Events: s.logEvent, Hold: s.begin}
	// The user's settings decide which optional tools are declared (web_search, with a search endpoint), and the
	// list follows them while the server runs (listed.go).
	deps := tools.ListDeps(session.New())
	s.registry = tools.Registry(deps)
	if deps.Settings != nil {
		s.settingsPath = deps.Settings.Path()
	}
	s.rootErr = "no project root: start the server with --root DIR, or use a client that provides MCP roots"
	if opt.Root != "" {
		if err := s.open(opt.Root); err != nil {
			s.holding.Stop()
			return nil, err
		}
	} else if dir := workspaceFromEnv(); dir != "" {
		// Cursor starts servers in / and answers roots/list with "method not found", but names the workspace here.
		if err := s.open(dir); err != nil {
			log.Warn("WORKSPACE_FOLDER_PATHS names a folder that cannot be opened", "dir", dir, "err", err)
		}
	}
	version := opt.Version
	if version == "" {
		version = "dev"
	}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: "rooted", Title: "Rooted", Version: version}, &mcp.ServerOptions{
		Instructions: "Rooted's tools work inside one project folder and cannot reach outside it. Paths are relative to the working directory (get_working_directory). Failures are results with isError and a JSON error with a stable code.",
		Logger:       log,
		// Tools only: no logging (deprecated by SEP-2577, and the SDK's default). The list changes with the user's
		// settings, so clients are told when it does (list_changed: on the session for 2025-era clients, on a
		// subscriptions/listen stream for 2026-07-28 ones).
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: true}},
		SetCacheable: cacheable,
		// Asking the client for its roots from inside a notification handler would wait on the very connection the
		// handler holds up: ask from a goroutine.
		InitializedHandler: func(_ context.Context, req *mcp.InitializedRequest) { go s.followRoots(req.Session) },
		//lint:ignore SA1019 roots are kept for today's clients through SEP-2577's deprecation window (package doc)
		RootsListChangedHandler: func(_ context.Context, req *mcp.RootsListChangedRequest) { go s.followRoots(req.Session) },
	})
	s.syncTools()
	s.mcp.AddReceivingMiddleware(s.followSettings)
	return s, nil
}

// toMCP is a registry spec as an MCP tool: the same schema and description, and the annotations the spec
// declares. exec_shell reaches beyond the project (a program may use the network unless the project's settings
// forbid it), and the web tools reach the web; every other tool is closed-world.
//
// It has no outputSchema: a client that sees one expects structuredContent, and the clients most used give their
// model structuredContent in place of the text block (clients.go).
func toMCP(spec tool.Spec) *mcp.Tool {
	destructive := spec.Destructive
	open := spec.Name == "exec_shell" || spec.Name == "web_fetch" || spec.Name == "web_search"
	return &mcp.Tool{
		Name: spec.Name, Title: spec.Title, Description: spec.Description, InputSchema: spec.InputSchema,
		Annotations: &mcp.ToolAnnotations{
			Title: spec.Title, ReadOnlyHint: spec.ReadOnly, DestructiveHint: &destructive,
			IdempotentHint: spec.Idempotent, OpenWorldHint: &open,
		},
	}
}

// handler runs the named tool for a client. askRoots lets it ask a client that declared roots for them when no
// project is open yet.
func (s *Server) handler(name string, readOnly, askRoots bool) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		s.release() // a call needs the project's preparation, or soon will
		if askRoots && s.current() == nil && !s.fixed && declaresRoots(req.ClientCapabilities()) {
			// No root yet: ask the client for its roots (SEP-2322's input requests; the SDK turns them into a
			// roots/list call for clients on older protocol versions) and take the answer on the retried call.
			// A client that declared no roots is never asked (the specification says it MUST NOT be).
			//lint:ignore SA1019 roots are kept for today's clients through SEP-2577's deprecation window (package doc)
			roots, ok := req.Params.InputResponses[rootsInput].(*mcp.ListRootsResult)
			if !ok {
				//lint:ignore SA1019 roots are kept for today's clients through SEP-2577's deprecation window (package doc)
				return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{rootsInput: &mcp.ListRootsParams{}}}, nil
			}
			s.useRoots(roots.Roots)
		}
		w := s.current()
		if w == nil {
			s.mu.Lock()
			msg := s.rootErr
			s.mu.Unlock()
			return failure(tool.Errorf(tool.CodeNoProject, "%s", msg)), nil
		}
		if !readOnly {
			// A change needs the project prepared (the snapshots set up to record it); a read does not wait.
			if err := w.WaitReady(ctx); err != nil {
				return nil, err
			}
		}
		args := req.Params.Arguments
		if len(args) == 0 {
			args = json.RawMessage("{}")
		}
		args = dropInjected(args, func(field string) bool { return s.declares(name, field) })
		// A command's output goes to the client as progress notifications when it asked for them.
		if token := req.Params.GetProgressToken(); token != nil && req.Session != nil {
			var mu sync.Mutex
			n := 0.0
			ctx = tool.WithProgress(ctx, func(stream string, data []byte) {
				mu.Lock()
				n++
				p := &mcp.ProgressNotificationParams{ProgressToken: token, Progress: n, Message: string(data)}
				mu.Unlock()
				_ = req.Session.NotifyProgress(ctx, p)
			})
		}
		if name == "ask_user" { // the model's question goes to the client's user (ask.go)
			var ask *mcp.CallToolResult
			var e *tool.Error
			if ctx, ask, e = question(ctx, req, args); e != nil {
				return failure(e), nil
			} else if ask != nil {
				return ask, nil
			}
		}
		if name == "exec_shell" { // what the window would ask about, the client's user is asked about (approve.go)
			if ask, e := s.approval(w, req, args); e != nil {
				return failure(e), nil
			} else if ask != nil {
				return ask, nil
			}
		}
		if name == "web_fetch" { // the first fetch from a domain asks, as in the window (webfetch.go)
			var ask *mcp.CallToolResult
			var e *tool.Error
			if ctx, ask, e = s.fetchApproval(ctx, w, req, args); e != nil {
				return failure(e), nil
			} else if ask != nil {
				return ask, nil
			}
		}
		ctx = tool.InConversation(ctx, conversationOf(req))
		res, e := w.Registry().CallForms(ctx, name, args)
		if e != nil {
			return failure(e), nil
		}
		// The text block is what a model reads, within the client's cap; the fields are in _meta, for programs,
		// without those the text carries whole (a file's content is sent once, not twice). A large text block is
		// encoded once, on its way out (splice.go).
		content := []mcp.Content{s.texts.content(budgetFor(req.ClientInfo(), s.maxBytes).text(res))}
		if media, data, ok := res.Image(); ok { // read_file of an image: the image itself, after the line saying what it is
			content = append(content, &mcp.ImageContent{Data: data, MIMEType: media})
		}
		return &mcp.CallToolResult{Content: content, Meta: mcp.Meta{ResultMeta: res.Structured()}}, nil
	}
}

// ErrorMeta is the _meta key of a failed call's error object ({code, message, path, ...}), for programs: the text
// block says the same to a model. A failure has no structuredContent, which would have to match the tool's
// outputSchema (clients check it even on errors).
const ErrorMeta = "dev.rooted/error"

// failure is a tool error as an MCP result: isError, the error's text form, and the error object in _meta.
func failure(e *tool.Error) *mcp.CallToolResult {
	return &mcp.CallToolResult{
		IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: e.ModelText()}},
		Meta: mcp.Meta{ErrorMeta: e},
	}
}

// holdAtMost is how long the project's preparation waits for the client's first request to be answered: a client
// starts a server to talk to it, so its first request comes within milliseconds.
const holdAtMost = 250 * time.Millisecond

// release lets the project's preparation begin (see begin), and tells Options.Started.
func (s *Server) release() {
	s.beginOnce.Do(func() {
		close(s.begin)
		if s.started != nil {
			s.started()
		}
	})
}

// open makes root the project, as a workspace of its own prepared in the background (its index, watcher and first
// snapshot take seconds on a large tree): the server answers initialize at once, and a tool call waits only when
// it needs the project prepared. The workspace it replaces (the client's roots changed) is closed, its jobs with
// it, once its own preparation is over.
func (s *Server) open(root string) error {
	s.mu.Lock()
	s.seq++
	id := "mcp-" + strconv.Itoa(s.seq)
	s.mu.Unlock()
	w, err := workspace.Open(context.Background(), root, id, s.wsOpt)
	if err != nil {
		return err
	}
	s.mu.Lock()
	prev := s.ws
	s.ws = w
	if prev != nil {
		s.closing.Add(1)
	}
	s.mu.Unlock()
	if prev != nil {
		go func() {
			defer s.closing.Done()
			_ = prev.Close()
		}()
	}
	s.log.Info("project root", "root", w.Root())
	return nil
}

// logEvent logs how a project's first snapshot went.
func (s *Server) logEvent(e workspace.Event) {
	if snap, ok := e.Data.(workspace.Snapshot); ok && snap.State != "running" {
		s.log.Info("first snapshot", "root", snap.Root, "state", snap.State, "files", snap.Snapshot.Files, "elapsed", snap.Elapsed, "err", snap.Err)
	}
}

// current is the open workspace, or nil.
func (s *Server) current() *workspace.Workspace {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ws
}

// followRoots opens the client's first file:// root, unless the root was fixed on the command line.
func (s *Server) followRoots(ss *mcp.ServerSession) {
	if s.fixed || ss == nil {
		return
	}
	//lint:ignore SA1019 roots are kept for today's clients through SEP-2577's deprecation window (package doc)
	if p := ss.InitializeParams(); p != nil && p.Capabilities != nil && p.Capabilities.RootsV2 == nil && !p.Capabilities.Roots.ListChanged {
		s.setRootErr("no project root: the client does not provide MCP roots; start the server with --root DIR")
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	//lint:ignore SA1019 roots are kept for today's clients through SEP-2577's deprecation window (package doc)
	res, err := ss.ListRoots(ctx, nil)
	if err != nil {
		s.log.Info("roots not listed now; they are asked for with the first tool call", "err", err)
		return
	}
	s.useRoots(res.Roots)
}

const rootsInput = "roots"

// The cache hints (SEP-2549's ttlMs and cacheScope). server/discover says what changes only with the binary (the
// capabilities, the versions, the instructions): a day, for anyone. tools/list changes with the user's settings:
// a client that listens for list_changed drops its copy when told, but one that does not (a 2026-07-28 client
// with no subscriptions/listen stream) would keep a stale list for as long as the hint says, so the hint is a
// minute, and private, since the list is this user's (their settings) and no shared cache may hand it to another.
const (
	discoverTTL = 24 * 60 * 60 * 1000
	listTTL     = 60 * 1000
)

// cacheable sets the cache hints of a result: the tool list's, or server/discover's. It runs with the SDK's lock
// held and must not call back into the server.
func cacheable(_ context.Context, req mcp.Request, c *mcp.Cacheable) {
	if _, ok := req.(*mcp.ListToolsRequest); ok {
		c.TTLMs, c.CacheScope = listTTL, "private"
		return
	}
	c.TTLMs, c.CacheScope = discoverTTL, "public"
}

// declaresRoots reports whether a client declared the roots capability.
func declaresRoots(c *mcp.ClientCapabilities) bool {
	//lint:ignore SA1019 roots are kept for today's clients through SEP-2577's deprecation window (package doc)
	return c != nil && (c.RootsV2 != nil || c.Roots.ListChanged)
}

// declares reports whether the named tool's input schema has field (the same in every workspace's registry).
func (s *Server) declares(name, field string) bool {
	t, ok := s.registry.Lookup(name)
	if !ok {
		return false
	}
	_, ok = t.Spec().InputSchema.Properties[field]
	return ok
}

// useRoots opens the first file:// root.
//
//lint:ignore SA1019 roots are kept for today's clients through SEP-2577's deprecation window (package doc)
func (s *Server) useRoots(roots []*mcp.Root) {
	for _, r := range roots {
		dir, err := fileURIPath(r.URI)
		if err != nil {
			continue
		}
		if err := s.open(dir); err != nil {
			s.setRootErr(fmt.Sprintf("no project root: the client's root %s cannot be opened: %v", dir, err))
			return
		}
		return
	}
	s.setRootErr("no project root: the client provided no file:// root; start the server with --root DIR")
}

func (s *Server) setRootErr(msg string) {
	s.mu.Lock()
	s.rootErr = msg
	s.mu.Unlock()
	s.log.Warn(msg)
}

// workspaceFromEnv is the first folder in WORKSPACE_FOLDER_PATHS (comma-separated), as Cursor sets it.
func workspaceFromEnv() string {
	for _, p := range strings.Split(os.Getenv("WORKSPACE_FOLDER_PATHS"), ",") {
		p = strings.TrimSpace(p)
		if fi, err := os.Stat(p); p != "" && err == nil && fi.IsDir() && filepath.IsAbs(p) {
			return p
		}
	}
	return ""
}

func fileURIPath(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return "", errors.New("not a file URI")
	}
	p := u.Path
	if runtime.GOOS == "windows" && len(p) > 2 && p[0] == '/' && p[2] == ':' {
		p = p[1:]
	}
	return filepath.FromSlash(p), nil
}

// Run serves one client over transport until it disconnects or ctx ends.
func (s *Server) Run(ctx context.Context, t mcp.Transport) error {
	defer s.texts.run()()
	if s.settingsPath != "" {
		// Beside the handshake, not before it: a watch on a folder the kernel knows many entries of (the nearest
		// existing one, /tmp say, before the settings' folder is made) took 5 ms to add. A save made before the
		// watch was in is caught by the list made again once it is.
		watching := make(chan func(), 1)
		go func() {
			stop := s.watchSettings(s.settingsPath)
			s.syncTools()
			watching <- stop
		}()
		defer func() { (<-watching)() }()
	}
	return s.mcp.Run(ctx, splicing{t, s.texts, s.release})
}

// Close closes the open workspace (its jobs, watcher, root and the snapshots' background work, once its
// preparation is over) and those it replaced.
func (s *Server) Close() error {
	s.holding.Stop()
	s.mu.Lock()
	w := s.ws
	s.ws = nil
	s.mu.Unlock()
	var err error
	if w != nil {
		err = w.Close()
	}
	s.closing.Wait()
	return err
}

// conversationOf is the conversation an MCP call belongs to: its client's session, whose agent has read only what
// it read itself (a server with several clients keeps each one's reads apart).
func conversationOf(req *mcp.CallToolRequest) string {
	if req.Session == nil {
		return "mcp"
	}
	if id := req.Session.ID(); id != "" {
		return "mcp:" + id
	}
	return fmt.Sprintf("mcp:%p", req.Session)
}
