// Package tools declares Rooted's tools, one file each with its description beside it in Markdown, and wires them
// to a session. Every face (Wails, LLM, CLI, MCP) gets its registry from Registry.
package tools

import (
	"github.com/rooted-dev/rooted/backend/search"
	"github.com/rooted-dev/rooted/backend/session"
	"github.com/rooted-dev/rooted/backend/tool"
)

// Deps are what the tools act on. One Deps (and so one registry) per session.
type Deps struct {
	Session *session.Session
	// Indexes, when set, keeps an in-memory search index of the open project, kept correct by a watcher (the
	// window); without it every search reads the disk (a CLI call, which searches once).
	Indexes *search.Indexes
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

// changed tells the index about a write made through the tools, so the next search sees it at once.
func (d Deps) changed(t session.Target, created bool) {
	if d.Indexes != nil {
		d.Indexes.Invalidate(t.Root, t.Slash(), created)
	}
}

// Registry declares every tool against deps.
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
	)
}
