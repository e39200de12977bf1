// Package tools declares Rooted's tools, one file each with its description beside it in Markdown, and wires them
// to a session. Every face (Wails, LLM, CLI, MCP) gets its registry from Registry.
package tools

import (
	"context"
	"os"

	"github.com/rooted-dev/rooted/backend/shell"

	"github.com/rooted-dev/rooted/backend/index"
	"github.com/rooted-dev/rooted/backend/jobs"
	"github.com/rooted-dev/rooted/backend/sched"
	"github.com/rooted-dev/rooted/backend/search"
	"github.com/rooted-dev/rooted/backend/session"
	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/skills"
	"github.com/rooted-dev/rooted/backend/snapshot"
	"github.com/rooted-dev/rooted/backend/tool"
	"github.com/rooted-dev/rooted/backend/watch"
	"github.com/rooted-dev/rooted/backend/webfetch"
	"github.com/rooted-dev/rooted/backend/websearch"
)

// Deps are what the tools act on. One Deps (and so one registry) per session.
type Deps struct {
	Session *session.Session
	// Settings holds the user's per-project choices (allowlist, sandbox); nil means the defaults.
	Settings *settings.Store
	// CommandProxy makes the proxy of one command in allow-list mode (httpproxy.New), reading the hosts it allows
	// and those it denies from lists at each connection, so a rule the user adds while the command runs (the host
	// card's Always, a deny in Settings) applies to its next connection. Nil where the program links no HTTP stack
	// (rooted's CLI): allow-list mode is then off, and the result says why.
	// ask (from WithHostAsk; nil where no one can answer) asks the user about a host not on the list while the
	// command runs.
	CommandProxy func(lists HostLists, ask HostAsk) shell.Proxy
	// SecretEnv names variables of this process that commands must not see (the app's own API keys), besides
	// those shell.Env recognises by name.
	SecretEnv []string
	// Snapshots records the project before every change the tools make; nil turns backups off (tests).
	Snapshots *snapshot.Projects
	// Indexes, when set, keeps an in-memory search index of the open project, kept correct by a watcher (the
	// window); without it every search reads the disk (a CLI call, which searches once).
	Indexes *index.Indexes
	// Jobs holds the commands running in the background (exec_shell's background); nil in a one-shot call.
	Jobs *jobs.Manager
	// Lane is the workspace's share of the process's scheduler (sched.Scheduler.Lane): its searches count there,
	// and its snapshots and index yield only to them. nil: a lane of its own (a one-shot call, tests).
	Lane *sched.Lane
	// EditUnread lets write_file and patch_file change an existing file the session has not read: for a one-shot
	// CLI call, whose session cannot have read anything. Long-lived sessions (the window's agent, MCP) refuse
	// such an edit with not_read.
	EditUnread bool
	// WithoutNamespaces runs commands as on a machine where no namespace can be made (the helper a subreaper, the
	// protected paths watched rather than read-only): for the tests of that weaker mode on machines that have
	// namespaces.
	WithoutNamespaces bool
	// Web fetches pages for web_fetch (httpfetch.Client, which keeps them a while); nil in rooted, which links no
	// HTTP client: web_fetch then refuses with the fetcher "none", and the CLI hands the call to rooted-mcp.
	Web webfetch.Fetcher
	// Search runs web_search's searches; nil: the Web client's own, when it has one (httpfetch.Client does).
	Search websearch.Searcher
	// SkillDirs are the user's skills folders (skills.UserDirs), besides the project's; nil: the project's only.
	SkillDirs []string
	// Ask puts a question to the person at this face and returns their answer (ask_user); nil where there is no
	// one to ask (the CLI), and ask_user is refused with no_user. The window answers ask_user itself.
	Ask func(ctx context.Context, question string, choices []string) (string, error)
}

// UserDeps are the dependencies every face uses outside tests: the user's settings and snapshots in their config
// and cache directories (each left out when the directory cannot be found). live adds what a long-lived face
// needs (Live). The faces get theirs through backend/workspace, which composes one Deps per open project.
func UserDeps(s *session.Session, live bool) Deps {
	d := Deps{Session: s, EditUnread: !live, SkillDirs: skills.UserDirs()}
	if path, err := settings.DefaultPath(); err == nil {
		d.Settings = settings.NewStore(path)
	}
	if cache, err := os.UserCacheDir(); err == nil {
		d.Snapshots = &snapshot.Projects{CacheDir: cache, Background: live}
	}
	if live {
		d = d.Live(nil)
	}
	return d
}

// ListDeps are the dependencies of a registry that only declares the tools (rooted tools, the faces' lists before
// a project opens): the session and the user's settings, which decide whether the optional tools (web_search)
// are listed.
func ListDeps(s *session.Session) Deps {
	d := Deps{Session: s}
	if path, err := settings.DefaultPath(); err == nil {
		d.Settings = settings.NewStore(path)
	}
	return d
}

// Live is d with what a long-lived face (the window, MCP) adds: a search index kept by a watcher, whose reports
// also keep the snapshots' staging and the session's stale-file check current, its memory budget counting toward
// limit (nil: no limit set); background jobs; and read-before-edit. Set Snapshots first: the watcher's reports go
// to the snapshots d has now.
func (d Deps) Live(limit *index.MemoryLimit) Deps {
	d.EditUnread = false
	d.Indexes = &index.Indexes{OnChange: d.watched, Limit: limit, Lane: d.Lane}
	d.Jobs = &jobs.Manager{}
	return d
}

// watched passes a watcher's report on to what must hear of it at once.
func (d Deps) watched(root *os.Root, e watch.Event) {
	d.Session.Changed(root, e.Path, e.Op&(watch.Remove|watch.Rename|watch.Rescan) != 0)
	if d.Snapshots != nil {
		if repo := d.Snapshots.Current(root); repo != nil {
			repo.MarkDirty(e.Path)
		}
	}
}

// searchSource is where search_files reads: the project's index when there is one, else the disk.
func (d Deps) searchSource(t session.Target) search.Source {
	if d.Indexes == nil {
		return search.DiskSource{Root: t.Root}
	}
	info, err := d.Session.Info()
	if err != nil {
		return search.DiskSource{Root: t.Root}
	}
	return d.Indexes.Source(t.Root, info.Root)
}

// projectSettings returns the user's settings for the project at root, or the defaults.
func (d Deps) projectSettings(root string) settings.Project {
	if d.Settings == nil {
		return settings.Project{}
	}
	p, err := d.Settings.Project(root)
	if err != nil {
		return settings.Project{} // an unreadable settings file falls back to the defaults, which are the safe side
	}
	return p
}

// backup records the project before a change to paths (none: to anything, as a command's), unless the caller
// asked not to. A failure is backup_failed and the change must not go ahead.
func (d Deps) backup(ctx context.Context, want *bool, reason string, paths ...string) (string, error) {
	if d.Snapshots == nil || (want != nil && !*want) {
		return "", nil
	}
	info, err := d.Session.Info()
	if err != nil {
		return "", err
	}
	t, err := d.Session.Resolve(info.Root)
	if err != nil {
		return "", err
	}
	repo, err := d.Snapshots.For(t.Root, info.Root)
	if err == nil {
		var s snapshot.Snapshot
		if s, err = repo.TakeFor(ctx, reason, paths); err == nil {
			return s.ID, nil
		}
	}
	return "", &tool.Error{Code: tool.CodeBackupFailed, Message: "the snapshot before the change failed, so nothing was changed: " + err.Error() +
		`; retry, or pass "backup": false to change without one`}
}

// repo returns the open project's snapshot repository.
func (d Deps) repo() (*snapshot.Repo, error) {
	if d.Snapshots == nil {
		return nil, tool.Errorf(tool.CodeInternal, "snapshots are not available here")
	}
	info, err := d.Session.Info()
	if err != nil {
		return nil, err
	}
	t, err := d.Session.Resolve(info.Root)
	if err != nil {
		return nil, err
	}
	return d.Snapshots.For(t.Root, info.Root)
}

// changed tells the index about a write made through the tools, so the next search sees it at once.
func (d Deps) changed(t session.Target, created bool) {
	if d.Indexes != nil {
		d.Indexes.Invalidate(t.Root, t.Slash(), created)
	}
}

// changedAll tells the index that anything may have changed (a command ran): it drops what it holds rather than
// race the watcher's report of the command's writes.
func (d Deps) changedAll() {
	if d.Indexes == nil {
		return
	}
	if t, err := d.Session.Resolve(""); err == nil {
		d.Indexes.InvalidateAll(t.Root)
	}
}

// Registry declares every tool against deps. The project's deny rules for a whole tool are applied to every call
// (Denied), so no face can run a tool the user refused.
func Registry(d Deps) *tool.Registry {
	return tool.NewRegistry(Classify,
		getWorkingDirectory(d),
		changeWorkingDirectory(d),
		listDirectory(d),
		readFile(d),
		writeFile(d),
		patchFile(d),
		searchFiles(d),
		findFiles(d),
		execShell(d),
		jobOutput(d),
		jobKill(d),
		listSnapshots(d),
		diffSnapshot(d),
		restoreSnapshot(d),
		webFetch(d),
		webSearch(d),
		useSkill(d),
		askUser(d),
	).WithGate(d.Denied)
}
