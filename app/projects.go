package app

import (
	"context"
	"path/filepath"
	"sync"
	"time"

	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"

	"github.com/rooted-dev/rooted/backend/recent"
	"github.com/rooted-dev/rooted/backend/session"
	"github.com/rooted-dev/rooted/backend/tool"
	"github.com/rooted-dev/rooted/backend/watch"
)

// Project is the open project as the frontend sees it.
type Project struct {
	Root        string `json:"root"`
	Name        string `json:"name"`
	Cwd         string `json:"cwd"`
	CwdRelative string `json:"cwd_relative"`
}

// RecentProject is one entry of the recent list; OpenedAt is RFC 3339.
type RecentProject struct {
	Path     string `json:"path"`
	Name     string `json:"name"`
	OpenedAt string `json:"opened_at"`
}

// Projects opens, chooses and remembers project folders.
type Projects struct {
	ctx     context.Context
	session *session.Session
	recent  *recent.Store
	now     func() time.Time
	opened  func(session.Info) // readies a project once it is open
	watch   func() (watch.Status, bool)

	mu       sync.Mutex
	startErr error // a --root folder that failed to open, reported by the first Current call
}

func toProject(i session.Info) Project {
	return Project{Root: i.Root, Name: i.Name, Cwd: i.Cwd, CwdRelative: i.CwdRel}
}

// Open makes path the project root and remembers it.
func (p *Projects) Open(path string) (Project, error) {
	info, err := p.session.SetRoot(path)
	if err != nil {
		return Project{}, rejectErr(err)
	}
	// The list is a convenience; failing to save it must not fail the open.
	_ = p.recent.Add(info.Root, p.now())
	if p.opened != nil {
		p.opened(info)
	}
	return toProject(info), nil
}

// Choose shows the native folder dialog and opens the folder picked; nil when the user cancels.
func (p *Projects) Choose() (*Project, error) {
	if p.ctx == nil {
		return nil, reject(tool.Errorf(tool.CodeInternal, "the window is not ready yet"))
	}
	dir, err := wruntime.OpenDirectoryDialog(p.ctx, wruntime.OpenDialogOptions{
		Title: "Open a project folder", CanCreateDirectories: true,
	})
	if err != nil {
		return nil, reject(tool.Errorf(tool.CodeInternal, "folder dialog: %v", err))
	}
	if dir == "" {
		return nil, nil
	}
	proj, err := p.Open(filepath.Clean(dir))
	if err != nil {
		return nil, err
	}
	return &proj, nil
}

// Current returns the open project, or nil when none is open. A folder given at start that could not be opened
// is reported once, as the rejection of the first call.
func (p *Projects) Current() (*Project, error) {
	p.mu.Lock()
	err := p.startErr
	p.startErr = nil
	p.mu.Unlock()
	if err != nil {
		return nil, rejectErr(err)
	}
	info, err := p.session.Info()
	if err != nil {
		return nil, nil
	}
	proj := toProject(info)
	return &proj, nil
}

// Watch says whether the open project is watched live (changes on disk reach the window by themselves), and if
// only partly, why.
func (p *Projects) Watch() WatchStatus {
	if p.watch == nil {
		return WatchStatus{}
	}
	st, ok := p.watch()
	return toWatchStatus(st, ok)
}

// Recent lists recently opened projects that still exist, most recent first.
func (p *Projects) Recent() ([]RecentProject, error) {
	list, err := p.recent.List()
	if err != nil {
		return nil, reject(tool.Errorf(tool.CodeInternal, "reading recent projects: %v", err))
	}
	out := make([]RecentProject, len(list))
	for i, r := range list {
		out[i] = RecentProject{Path: r.Path, Name: r.Name, OpenedAt: r.OpenedAt.Format(time.RFC3339)}
	}
	return out, nil
}

// Forget removes a folder from the recent list.
func (p *Projects) Forget(path string) error {
	if err := p.recent.Remove(path); err != nil {
		return reject(tool.Errorf(tool.CodeInternal, "updating recent projects: %v", err))
	}
	return nil
}
