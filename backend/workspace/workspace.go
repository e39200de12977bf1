// Package workspace composes one open project: its session, search index and watcher, snapshot repository,
// background jobs, tool registry and event stream, built once here for every face (the window, the MCP server, the
// CLI). A process may hold many workspaces at once (Set); each owns its parts outright, so opening or closing one
// never touches another's index, snapshots or jobs.
//
// Guarantees: Close ends everything the workspace started (the watcher, the snapshots' background work, the jobs
// and their process groups, the project's open root) and returns once they have ended; it is idempotent and safe
// from any goroutine. Events are delivered to subscribers in the order each source emits them, tagged with the
// workspace's id.
package workspace

import (
	"context"
	"log/slog"
	"os"
	"sync"

	"github.com/rooted-dev/rooted/backend/shell"

	"github.com/rooted-dev/rooted/backend/index"
	"github.com/rooted-dev/rooted/backend/jobs"
	"github.com/rooted-dev/rooted/backend/repoinfo"
	"github.com/rooted-dev/rooted/backend/sched"
	"github.com/rooted-dev/rooted/backend/session"
	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/snapshot"
	"github.com/rooted-dev/rooted/backend/tool"
	"github.com/rooted-dev/rooted/backend/tools"
	"github.com/rooted-dev/rooted/backend/watch"
	"github.com/rooted-dev/rooted/backend/webfetch"
)

// Options say how a workspace is composed. The user's settings, skills and snapshot cache come from their usual
// directories (XDG_CONFIG_HOME, XDG_CACHE_HOME), as tools.UserDeps finds them.
type Options struct {
	// Live is for a long-lived face (the window, the MCP server): a search index kept by a watcher, background
	// jobs, snapshots that detach the objects they borrow, read-before-edit, and the project prepared in the
	// background (Ready). Without it, a one-shot call: searches read the disk and edits need no earlier read.
	Live bool
	// Cwd, when set, is the working directory inside the root the session starts in.
	Cwd string
	// Settings, when set, is the user's settings store the workspace reads and saves through: one per process,
	// shared by its workspaces, so their read-modify-writes of the one file are serialised. nil: a store of its
	// own on the user's settings file.
	Settings *settings.Store
	// Limit is the process's memory limit the index's budget counts toward, shared by the workspaces of a Set.
	Limit *index.MemoryLimit
	// Sched is the process's scheduler, shared by the workspaces of a Set: each takes a lane of it, so its
	// searches hold back only its own snapshots' and index's background work. nil: a lane of its own in which
	// nothing waits for another.
	Sched *sched.Scheduler
	// Web fetches pages for web_fetch; nil: web_fetch refuses (rooted links no HTTP client).
	Web webfetch.Fetcher
	// CommandProxy makes the proxy of a command in allow-list mode (tools.Deps.CommandProxy); nil: that mode is
	// off (rooted links no HTTP stack).
	CommandProxy func(lists tools.HostLists, ask tools.HostAsk) shell.Proxy
	// Ask puts ask_user's question to the person at the face; nil: ask_user is refused with no_user.
	Ask func(ctx context.Context, question string, choices []string) (string, error)
	// Events, when set, hears every event of the workspace from its opening on (a later Subscribe may miss the
	// first snapshot's start). Each event names its workspace, so one function can serve a whole Set.
	Events func(Event)
	// Extend, when set, gives each workspace tools declared elsewhere (the MCP servers the user's settings name for
	// the project, in a face that links an MCP client): they join its registry after its own and end with it.
	Extend func(id, root string) Extension
	// NoSnapshots leaves the tools without snapshots: nothing they change is recorded first. Only for a folder
	// that has a backup of its own (a new worktree's setup command: the branch's base is its backup).
	NoSnapshots bool
	// Prepare, when set, stands in for the preparation of a live workspace (tests that hold it to see what waits
	// for it); it runs in the background like the preparation it replaces.
	Prepare func(session.Info)
	// Hold, when set, holds a live workspace's preparation until it is closed: a face that must answer first (the
	// MCP server's handshake, which the preparation's reading of a large tree would slow) releases it once it has.
	// A workspace closed while held is never prepared.
	Hold <-chan struct{}
}

// Extension is tools a workspace's registry lists after its own, whose declarations come from elsewhere; Close
// ends what provides them (another MCP server's process) when the workspace closes.
type Extension interface {
	tool.Dynamic
	Close() error
}

// Workspace is one open project and everything a face acts on it with.
type Workspace struct {
	id       string
	info     session.Info
	deps     tools.Deps
	registry *tool.Registry
	lane     *sched.Lane
	repo     *repoinfo.Repo
	ext      Extension // nil: none
	events   Stream
	ready    chan struct{} // closed once the project is prepared (at once for a one-shot workspace)
	closing  chan struct{} // closed when Close begins: a preparation still held does not start

	closeOnce sync.Once
	closeErr  error
}

// Open opens the folder at root as a workspace. id names it to the faces (Set gives each a unique one); ctx bounds
// the opening only, not the workspace's life, which lasts until Close.
func Open(ctx context.Context, root, id string, opt Options) (*Workspace, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s := session.New()
	info, err := s.SetRoot(root)
	if err != nil {
		return nil, err
	}
	if opt.Cwd != "" {
		if info, err = s.Chdir(opt.Cwd); err != nil {
			_ = s.Close()
			return nil, err
		}
	}
	w := &Workspace{id: id, info: info, ready: make(chan struct{}), closing: make(chan struct{}), repo: repoinfo.New(info.Root)}
	w.events.id = id
	if opt.Events != nil {
		w.events.Subscribe(opt.Events)
	}
	if opt.Sched != nil {
		w.lane = opt.Sched.Lane(id)
	}
	w.deps = compose(s, opt, w)
	w.registry = tools.Registry(w.deps)
	if opt.Extend != nil {
		if w.ext = opt.Extend(id, info.Root); w.ext != nil {
			w.registry.WithDynamic(w.ext)
		}
	}
	if !opt.Live {
		close(w.ready)
		return w, nil
	}
	prepare := opt.Prepare
	if prepare == nil {
		prepare = w.prepare
	}
	go func() {
		defer close(w.ready)
		if opt.Hold != nil {
			select {
			case <-opt.Hold:
			case <-w.closing:
				return
			}
		}
		prepare(info)
	}()
	return w, nil
}

// compose builds the tools' dependencies for the session, with the live parts' reports going to w's events.
func compose(s *session.Session, opt Options, w *Workspace) tools.Deps {
	d := tools.UserDeps(s, false)
	d.Web, d.Ask, d.Lane, d.CommandProxy = opt.Web, opt.Ask, w.lane, opt.CommandProxy
	if opt.Settings != nil {
		d.Settings = opt.Settings
	}
	if opt.NoSnapshots {
		d.Snapshots = nil
	}
	if !opt.Live {
		return d
	}
	if d.Snapshots != nil {
		d.Snapshots.Background = true // the process lives on: repositories detach what they borrow
	}
	d = d.Live(opt.Limit)
	d.Indexes.OnBatch = func(root *os.Root, batch []watch.Event, st watch.Status) {
		w.events.emit(KindFiles, Files{Root: root.Name(), Changes: batch, Watch: st})
	}
	d.Jobs.OnOutput = func(root, id string) { w.events.emit(KindJobOutput, JobOutput{Root: root, ID: id}) }
	d.Jobs.OnChange = func(i jobs.Info) { w.events.emit(KindJobChange, i) }
	return d
}

// prepare readies the project as every long-lived face does (tools.Deps.Prepare), its first snapshot's progress
// going out as events.
func (w *Workspace) prepare(info session.Info) {
	w.deps.Prepare(info, func(f tools.FirstSnapshot) {
		w.events.emit(KindSnapshot, Snapshot{Root: info.Root, FirstSnapshot: f})
	})
}

// Extension is what Options.Extend gave the workspace; nil when nothing.
func (w *Workspace) Extension() Extension { return w.ext }

// Repo describes the project's git repository (for the agent's system prompt), remembering what it learns of it
// for the workspace's life.
func (w *Workspace) Repo() *repoinfo.Repo { return w.repo }

// ID is the workspace's id, as the faces name it.
func (w *Workspace) ID() string { return w.id }

// Info is the project as opened: its root, name and the cwd it started in (Session().Info() for the cwd now).
func (w *Workspace) Info() session.Info { return w.info }

// Root is the project's resolved absolute path.
func (w *Workspace) Root() string { return w.info.Root }

// Session is the workspace's session: its root, cwd and what it has read.
func (w *Workspace) Session() *session.Session { return w.deps.Session }

// Registry is every tool, acting on this workspace.
func (w *Workspace) Registry() *tool.Registry { return w.registry }

// Deps are what the tools act on, for the faces' checks beside the registry (permissions, settings).
func (w *Workspace) Deps() tools.Deps { return w.deps }

// Settings is the user's settings store (nil when no config directory could be found).
func (w *Workspace) Settings() *settings.Store { return w.deps.Settings }

// Jobs are the workspace's background commands; nil in a one-shot workspace.
func (w *Workspace) Jobs() *jobs.Manager { return w.deps.Jobs }

// Indexes is the workspace's search index holder; nil in a one-shot workspace.
func (w *Workspace) Indexes() *index.Indexes { return w.deps.Indexes }

// Snapshots is the workspace's snapshot repository holder; nil without a cache directory.
func (w *Workspace) Snapshots() *snapshot.Projects { return w.deps.Snapshots }

// Watch reports the watcher's coverage of the project; ok is false while it has none (starting, or one-shot).
func (w *Workspace) Watch() (watch.Status, bool) {
	if w.deps.Indexes == nil {
		return watch.Status{}, false
	}
	return w.deps.Indexes.Status()
}

// Events is the workspace's event stream.
func (w *Workspace) Events() *Stream { return &w.events }

// Ready is closed once the project is prepared (its index and watcher started, its snapshots set up to record a
// change), or closed while its preparation was held (Options.Hold): a change waits for it, a read need not.
func (w *Workspace) Ready() <-chan struct{} { return w.ready }

// WaitReady waits until the workspace is prepared (or closed while held, see Ready), or ctx ends.
func (w *Workspace) WaitReady(ctx context.Context) error {
	select {
	case <-w.ready:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Close ends the workspace once its preparation is over (which would otherwise start a watcher after it): its jobs
// (waiting for their processes to end), its index and watcher, its snapshots' background work, then its root.
// Later calls return the first one's result.
func (w *Workspace) Close() error {
	w.closeOnce.Do(func() {
		close(w.closing)
		<-w.ready
		w.deps.Jobs.Close()
		if w.ext != nil {
			if err := w.ext.Close(); err != nil {
				slog.Warn("ending the project's MCP servers", "root", w.info.Root, "err", err)
			}
		}
		if w.deps.Indexes != nil {
			w.deps.Indexes.Close()
		}
		if w.deps.Snapshots != nil {
			w.deps.Snapshots.Close()
		}
		w.events.close()
		w.lane.Close()
		w.closeErr = w.deps.Session.Close()
		if w.closeErr != nil {
			slog.Warn("closing project", "root", w.info.Root, "err", w.closeErr)
		}
	})
	return w.closeErr
}
