package app

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"time"

	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"

	"github.com/rooted-dev/rooted/backend/recent"
	"github.com/rooted-dev/rooted/backend/tool"
	"github.com/rooted-dev/rooted/backend/workspace"
	"github.com/rooted-dev/rooted/backend/worktree"
)

// Project is an open project as the frontend sees it. ID names its workspace in every call that acts on it.
type Project struct {
	ID          string `json:"id"`
	Root        string `json:"root"`
	Name        string `json:"name"`
	Cwd         string `json:"cwd"`
	CwdRelative string `json:"cwd_relative"`
	// Worktree is set when the project is a worktree Rooted made of another (its main checkout), so the window
	// can mark it as one and offer to bring its changes home.
	Worktree *ProjectWorktree `json:"worktree,omitempty"`
}

// ProjectWorktree names the worktree an open project is: its name (for the Worktrees calls), its branch and the
// main checkout it was made from.
type ProjectWorktree struct {
	Name     string `json:"name"`
	Branch   string `json:"branch"`
	Main     string `json:"main"`      // the main checkout's folder
	MainName string `json:"main_name"` // its name, as the window shows projects
}

// RecentProject is one entry of the recent list; OpenedAt is RFC 3339.
type RecentProject struct {
	Path     string `json:"path"`
	Name     string `json:"name"`
	OpenedAt string `json:"opened_at"`
}

// Projects opens, lists, closes and remembers project folders: each open one is a workspace of its own, so a job
// or an agent's work in one goes on while the window shows another.
type Projects struct {
	set    *workspace.Set
	recent *recent.Store
	now    func() time.Time
	// owner says whether a folder is a worktree Rooted made, and of which project; nil: none is.
	owner func(dir string) (worktree.Worktree, bool)

	mu       sync.Mutex
	ctx      context.Context
	focused  string // the id of the project the window shows, so a reloaded window comes back to it
	startErr error  // a --root folder that failed to open, reported by the first Current call
}

func (p *Projects) setContext(ctx context.Context) {
	p.mu.Lock()
	p.ctx = ctx
	p.mu.Unlock()
}

func (p *Projects) toProject(w *workspace.Workspace) Project {
	i, err := w.Session().Info()
	if err != nil { // closed meanwhile: as it was opened
		i = w.Info()
	}
	proj := Project{ID: w.ID(), Root: i.Root, Name: i.Name, Cwd: i.Cwd, CwdRelative: i.CwdRel}
	if p.owner != nil {
		if wt, ok := p.owner(w.Root()); ok {
			proj.Worktree = &ProjectWorktree{Name: wt.Name, Branch: wt.Branch, Main: wt.Project, MainName: filepath.Base(wt.Project)}
		}
	}
	return proj
}

// Open opens the folder at path as a project beside those open, and remembers it; a folder open already is not
// opened again, its project is returned. Either way it becomes the one the window shows.
func (p *Projects) Open(path string) (Project, error) {
	w, _, err := p.set.Open(context.Background(), path)
	if err != nil {
		return Project{}, rejectErr(err)
	}
	// The list is a convenience; failing to save it must not fail the open.
	_ = p.recent.Add(w.Root(), p.now())
	// As before workspaces: the project opens with its watcher up (the file tree is live from the first look);
	// the first snapshot goes on in the background.
	<-w.Ready()
	p.mu.Lock()
	p.focused = w.ID()
	p.mu.Unlock()
	return p.toProject(w), nil
}

// Close closes project id: its background jobs end, its watcher stops, its snapshots' work finishes; the other
// projects go on.
func (p *Projects) Close(id string) error {
	if err := p.set.Close(id); err != nil {
		if errors.Is(err, workspace.ErrNotOpen) {
			return reject(tool.Errorf(tool.CodeNoProject, "no open project has the id %q", id))
		}
		return rejectErr(err)
	}
	return nil
}

// List lists the open projects in the order they were opened.
func (p *Projects) List() []Project {
	out := []Project{}
	for _, w := range p.set.List() {
		out = append(out, p.toProject(w))
	}
	return out
}

// Focus records that the window shows project id, so a reloaded window comes back to it.
func (p *Projects) Focus(id string) error {
	if _, err := open(p.set, id); err != nil {
		return err
	}
	p.mu.Lock()
	p.focused = id
	p.mu.Unlock()
	return nil
}

// Choose shows the native folder dialog and opens the folder picked; nil when the user cancels.
func (p *Projects) Choose() (*Project, error) {
	p.mu.Lock()
	ctx := p.ctx
	p.mu.Unlock()
	if ctx == nil {
		return nil, reject(tool.Errorf(tool.CodeInternal, "the window is not ready yet"))
	}
	dir, err := wruntime.OpenDirectoryDialog(ctx, wruntime.OpenDialogOptions{
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

// Current returns the project the window showed last (the one given at start, for a new window), or nil when
// none is open. A folder given at start that could not be opened is reported once, as the rejection of the first
// call.
func (p *Projects) Current() (*Project, error) {
	p.mu.Lock()
	err, focused := p.startErr, p.focused
	p.startErr = nil
	p.mu.Unlock()
	if err != nil {
		return nil, rejectErr(err)
	}
	open := p.set.List()
	for _, w := range open {
		if w.ID() == focused {
			proj := p.toProject(w)
			return &proj, nil
		}
	}
	if len(open) == 0 {
		return nil, nil
	}
	proj := p.toProject(open[len(open)-1])
	return &proj, nil
}

// Watch says whether project id is watched live (changes on disk reach the window by themselves), and if only
// partly, why.
func (p *Projects) Watch(id string) WatchStatus {
	w, err := p.set.Get(id)
	if err != nil {
		return WatchStatus{}
	}
	st, ok := w.Watch()
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
