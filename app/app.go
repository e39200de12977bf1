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
	"os"
	"time"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"
	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"

	"github.com/rooted-dev/rooted/backend/conversations"
	"github.com/rooted-dev/rooted/backend/index"
	"github.com/rooted-dev/rooted/backend/jobs"
	"github.com/rooted-dev/rooted/backend/llm"
	"github.com/rooted-dev/rooted/backend/recent"
	"github.com/rooted-dev/rooted/backend/session"
	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/skills"
	"github.com/rooted-dev/rooted/backend/snapshot"
	"github.com/rooted-dev/rooted/backend/tool"
	"github.com/rooted-dev/rooted/backend/tools"
	"github.com/rooted-dev/rooted/backend/watch"
	"github.com/rooted-dev/rooted/backend/webfetch/httpfetch"
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
	defer svc.session.Close()
	defer svc.deps.Jobs.Close() // every background command ends with the app
	defer svc.indexes.Close()
	defer svc.MCPServers.close() // the servers end with the window
	if svc.snapshots != nil {
		defer svc.snapshots.Close()
	}
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
		Bind:             []any{svc.Projects, svc.Tools, svc.Agent, svc.Settings, svc.Permissions, svc.Jobs, svc.Diagnostics, svc.MCPServers},
		Linux:            &linux.Options{ProgramName: "rooted"},
	})
}

// services are the bound structs plus what they share. Only the exported fields are bound; their methods are the
// frontend's whole view of the backend.
type services struct {
	session   *session.Session
	indexes   *index.Indexes
	snapshots *snapshot.Projects
	settings  *settings.Store
	deps      tools.Deps
	events    *emitter // every event to the window goes through it, queued until the window is up
	Projects  *Projects
	Tools     *Tools
	Agent     *Agent
	Settings  *Settings
	// Permissions and Jobs: the project's permission rules and its background commands.
	Permissions *Permissions
	Jobs        *Jobs
	Diagnostics *Diagnostics
	MCPServers  *MCPServers
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
	s := session.New()
	p := &Projects{session: s, recent: recent.NewStore(file), now: time.Now}
	svc := &services{session: s, Projects: p, events: &emitter{}}
	p.opened = svc.prepare
	// The watcher's reports keep the index and the snapshots' staging current and make the stale-file check of
	// write and patch compare content for whatever changed behind the session's back (UserDeps wires that); its
	// batches also go to the window as they are, and the frontend decides what each view re-reads.
	deps := tools.UserDeps(s, true)
	deps.Web = httpfetch.New(httpfetch.Options{}) // web_fetch's client, with its 15-minute cache, for the session
	svc.deps, svc.indexes, svc.settings, svc.snapshots = deps, deps.Indexes, deps.Settings, deps.Snapshots
	svc.indexes.OnBatch = func(root *os.Root, batch []watch.Event, st watch.Status) {
		svc.events.Emit(EventFsChanges, FsChanges{Root: root.Name(), Changes: batch, Watch: toWatchStatus(st, true)})
	}
	p.watch = svc.indexes.Status
	svc.MCPServers = newMCPServers(s, svc.settings, deps.SecretEnv, svc.events.Emit)
	svc.Tools = &Tools{registry: tools.Registry(deps).WithDynamic(svc.MCPServers.tools()), emit: svc.events.Emit}
	svc.Permissions = &Permissions{session: s, store: svc.settings, deps: deps, registry: svc.Tools.registry}
	svc.Jobs = &Jobs{session: s, jobs: deps.Jobs, store: svc.settings}
	// The Run tab follows the jobs by these reports rather than by asking over and over.
	jn := &jobNotifier{emit: svc.events.Emit}
	deps.Jobs.OnOutput = jn.note
	deps.Jobs.OnChange = func(i jobs.Info) { jn.note(i.Root, i.ID) }
	svc.Diagnostics = &Diagnostics{session: s, store: svc.settings, registry: svc.Tools.registry}
	svc.Settings = &Settings{session: s, store: svc.settings, snapshots: svc.snapshots, indexes: svc.indexes, skillDirs: deps.SkillDirs, commandDirs: skills.UserCommandDirs()}
	providersFile, err := llm.DefaultPath()
	if err != nil {
		return nil, fmt.Errorf("locating the config directory: %w", err)
	}
	store := llm.NewStore(providersFile, nil)
	svc.Agent = &Agent{providers: store, relay: &llm.Relay{Store: store}, session: s, emit: svc.events.Emit}
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

// prepare readies a newly opened project as every long-lived face does (tools.Deps.Prepare), and tells the
// window how its first snapshot goes.
func (s *services) prepare(info session.Info) {
	s.deps.Prepare(info, func(f tools.FirstSnapshot) {
		p := SnapshotProgress{State: f.State, Root: info.Root, Elapsed: f.Elapsed.Milliseconds()}
		if f.Err != nil {
			p.Error = f.Err.Error()
		}
		if f.State == "done" {
			p.Files = f.Snapshot.Files
		}
		s.events.Emit(EventSnapshot, p)
	})
}

func (s *services) startup(ctx context.Context) {
	s.start(ctx, func(name string, data any) { wruntime.EventsEmit(ctx, name, data) })
}

// start is startup with the window's event sender given (tests pass their own): what was emitted before it is
// sent now, in order.
func (s *services) start(ctx context.Context, send func(name string, data any)) {
	s.Projects.ctx = ctx
	s.Agent.ctx = ctx
	s.events.start(send)
}

// reject turns a tool error into the rejection the bridge parses.
func reject(e *tool.Error) error { return errors.New(string(e.JSON())) }

// rejectErr classifies a Go error first.
func rejectErr(err error) error {
	var te *tool.Error
	if errors.As(err, &te) {
		return reject(te)
	}
	return reject(tools.Classify(err))
}
