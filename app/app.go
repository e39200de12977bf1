// Package app is Rooted's Wails face: small bound services whose methods are thin calls into backend packages,
// returning concrete DTOs. Failures reach the frontend as rejections whose message is the tool error JSON
// ({"error": {code, message, ...}}), which frontend/src/bridge turns into a typed BackendError.
package app

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"time"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"
	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"

	"github.com/rooted-dev/rooted/backend/conversations"
	"github.com/rooted-dev/rooted/backend/jobs"
	"github.com/rooted-dev/rooted/backend/llm"
	"github.com/rooted-dev/rooted/backend/recent"
	"github.com/rooted-dev/rooted/backend/session"
	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/skills"
	"github.com/rooted-dev/rooted/backend/tool"
	"github.com/rooted-dev/rooted/backend/tools"
	"github.com/rooted-dev/rooted/backend/webfetch/httpfetch"
	"github.com/rooted-dev/rooted/backend/workspace"
)

// Options configure the window.
type Options struct {
	// Assets is the built frontend (frontend/dist embedded by main).
	Assets embed.FS
	// Root, when set, is opened as the project at start.
	Root string
	// RecentFile overrides where recent projects are kept (tests).
	RecentFile string
}

// Run opens the window and blocks until it closes.
func Run(opt Options) error {
	if err := CheckDisplay(); err != nil {
		return err
	}
	assets, err := fs.Sub(opt.Assets, "frontend/dist")
	if err != nil {
		return err
	}
	svc, err := newServices(opt)
	if err != nil {
		return err
	}
	defer svc.workspaces.CloseAll() // every project's jobs, watcher and snapshots' work end with the app
	return wails.Run(&options.App{
		Title:            "Rooted",
		Width:            1280,
		Height:           820,
		MinWidth:         720,
		MinHeight:        480,
		BackgroundColour: &options.RGBA{R: 24, G: 26, B: 31, A: 255},
		AssetServer:      &assetserver.Options{Assets: assets},
		OnStartup:        svc.startup,
		OnBeforeClose:    svc.Agent.beforeClose,
		Bind:             []any{svc.Projects, svc.Tools, svc.Agent, svc.Settings, svc.Permissions, svc.Jobs, svc.Diagnostics, svc.Worktrees, svc.MCPServers},
		Linux:            &linux.Options{ProgramName: "rooted"},
	})
}

// services are the bound structs plus what they share. Only the exported fields are bound; their methods are the
// frontend's whole view of the backend. Every method that acts on a project takes the id of its workspace first:
// the window holds several projects open at once.
type services struct {
	workspaces *workspace.Set
	settings   *settings.Store
	events     *emitter // every event to the window goes through it, queued until the window is up
	Projects   *Projects
	Tools      *Tools
	Agent      *Agent
	Settings   *Settings
	// Permissions and Jobs: the projects' permission rules and their background commands.
	Permissions *Permissions
	Jobs        *Jobs
	Diagnostics *Diagnostics
	Worktrees   *Worktrees  // conversations in checkouts of their own (worktrees.go)
	MCPServers  *MCPServers // each open project's MCP servers, whose tools the agent uses (mcpservers.go)
}

func newServices(opt Options) (*services, error) {
	file := opt.RecentFile
	if file == "" {
		f, err := recent.DefaultFile()
		if err != nil {
			return nil, fmt.Errorf("locating the config directory: %w", err)
		}
		file = f
	}
	var store *settings.Store
	if path, err := settings.DefaultPath(); err == nil {
		store = settings.NewStore(path)
	}
	// Every project opened is a live workspace: a watcher keeps its index, its snapshots' staging and the
	// stale-file check of write and patch current; web_fetch's client, with its 15-minute cache, is shared.
	// Each project's MCP servers (named in the user's settings) join its registry and end with it.
	svc := &services{settings: store, events: &emitter{}}
	svc.MCPServers = &MCPServers{store: store, emit: svc.events.Emit}
	set := &workspace.Set{Options: workspace.Options{
		Live: true, Settings: store, Web: httpfetch.New(httpfetch.Options{}), CommandProxy: commandProxy(), Events: svc.follow(), Extend: svc.MCPServers.extend,
	}}
	svc.workspaces, svc.MCPServers.set = set, set
	p := &Projects{set: set, recent: recent.NewStore(file), now: time.Now}
	svc.Projects = p
	svc.Tools = &Tools{set: set, specs: tools.Registry(tools.Deps{Session: session.New(), Settings: store}), emit: svc.events.Emit}
	svc.Permissions = &Permissions{set: set, store: store}
	svc.Jobs = &Jobs{set: set, store: store}
	svc.Diagnostics = &Diagnostics{set: set, store: store}
	svc.Worktrees = newWorktrees(set, p, svc.events.Emit)
	svc.Settings = &Settings{set: set, store: store, skillDirs: skills.UserDirs(), commandDirs: skills.UserCommandDirs()}
	providersFile, err := llm.DefaultPath()
	if err != nil {
		return nil, fmt.Errorf("locating the config directory: %w", err)
	}
	providers, keys := openProviders(providersFile)
	svc.Agent = &Agent{providers: providers, keys: keys, relay: &llm.Relay{Store: providers}, set: set, emit: svc.events.Emit}
	if base, err := conversations.DefaultBase(); err == nil {
		svc.Agent.dataDir = base
	}
	// Last, so the project given at start gets its watcher and first snapshot like one opened from the window.
	if opt.Root != "" {
		if _, err := p.Open(opt.Root); err != nil {
			// The window still opens on the project picker; the message says why the folder was not opened.
			slog.Warn("could not open project", "root", opt.Root, "err", err)
			p.startErr = err
		}
	}
	return svc, nil
}

// follow returns what sends the workspaces' events to the window, each tagged with its workspace's id so the
// window routes it to its project: the watcher's batches as they are (the frontend decides what each view
// re-reads), the first snapshot's progress, and the jobs' reports, gathered (jobNotifier) so the Run tab follows
// them rather than asking over and over.
func (s *services) follow() func(workspace.Event) {
	jn := &jobNotifier{emit: s.events.Emit}
	return func(e workspace.Event) {
		switch d := e.Data.(type) {
		case workspace.Files:
			s.events.Emit(EventFsChanges, FsChanges{Workspace: e.Workspace, Root: d.Root, Changes: d.Changes, Watch: toWatchStatus(d.Watch, true)})
		case workspace.Snapshot:
			p := SnapshotProgress{Workspace: e.Workspace, State: d.State, Root: d.Root, Elapsed: d.Elapsed.Milliseconds()}
			if d.Err != nil {
				p.Error = d.Err.Error()
			}
			if d.State == "done" {
				p.Files = d.Snapshot.Files
			}
			s.events.Emit(EventSnapshot, p)
		case workspace.JobOutput:
			jn.note(e.Workspace, d.Root, d.ID)
		case jobs.Info:
			jn.note(e.Workspace, d.Root, d.ID)
		}
	}
}

func (s *services) startup(ctx context.Context) {
	s.start(ctx, func(name string, data any) { wruntime.EventsEmit(ctx, name, data) })
}

// start is startup with the window's event sender given (tests pass their own): what was emitted before it is
// sent now, in order.
func (s *services) start(ctx context.Context, send func(name string, data any)) {
	s.Projects.setContext(ctx)
	s.Agent.ctx = ctx
	s.events.start(send)
}

// reject turns a tool error into the rejection the bridge parses.
func reject(e *tool.Error) error { return errors.New(string(e.JSON())) }

// open returns the open workspace id, or the no_project rejection: the project was closed (a late call from its
// view) or never opened.
func open(set *workspace.Set, id string) (*workspace.Workspace, error) {
	w, err := set.Get(id)
	if err != nil {
		return nil, reject(tool.Errorf(tool.CodeNoProject, "no open project has the id %q (it was closed, or never opened)", id))
	}
	return w, nil
}

// rejectErr classifies a Go error first.
func rejectErr(err error) error {
	var te *tool.Error
	if errors.As(err, &te) {
		return reject(te)
	}
	return reject(tools.Classify(err))
}
