package app

import (
	"context"

	"github.com/rooted-dev/rooted/backend/session"
	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/tool"
	"github.com/rooted-dev/rooted/backend/tools"
	"github.com/rooted-dev/rooted/backend/workspace"
	"github.com/rooted-dev/rooted/backend/worktree"
)

// Worktrees gives a conversation a checkout of its own (package worktree): a git worktree of an open project,
// which the window opens as a project beside it, so the conversation's edits, commands and snapshots happen there
// and the main checkout is untouched until Apply. Every method takes the id of an open project and acts on its
// main checkout's worktrees, whether that project is the main checkout or one of its worktrees.
type Worktrees struct {
	set      *workspace.Set
	projects *Projects
	manager  *worktree.Manager
}

// WorktreeOpened is a worktree made (or chosen) for a conversation and opened as the project.
type WorktreeOpened struct {
	Worktree worktree.Worktree `json:"worktree"`
	Project  Project           `json:"project"`
}

// newWorktrees returns the bound service, or one that refuses every call when there is no cache folder.
func newWorktrees(set *workspace.Set, p *Projects, store *settings.Store) *Worktrees {
	m, err := worktree.ForUser(store, func(s *session.Session) tools.Deps { return tools.UserDeps(s, false) })
	if err != nil {
		return &Worktrees{set: set, projects: p} // main() refuses every call
	}
	return &Worktrees{set: set, projects: p, manager: m}
}

// main returns the main checkout of open project id: the project itself, or the one it is a worktree of.
func (w *Worktrees) main(id string) (string, error) {
	if w.manager == nil {
		return "", reject(tool.Errorf(tool.CodeInternal, "no cache folder to keep worktrees in"))
	}
	ws, err := open(w.set, id)
	if err != nil {
		return "", err
	}
	if wt, ok := w.manager.Owner(ws.Root()); ok {
		return wt.Project, nil
	}
	return ws.Root(), nil
}

// List returns the open project's worktrees, each with how many files it changed.
func (w *Worktrees) List(id string) ([]worktree.Worktree, error) {
	root, err := w.main(id)
	if err != nil {
		return nil, err
	}
	list, err := w.manager.List(context.Background(), root)
	if err != nil {
		return nil, rejectErr(err)
	}
	if list == nil {
		list = []worktree.Worktree{}
	}
	return list, nil
}

// Start makes a worktree named after the conversation (its setup command run in it) and opens it as a project
// beside project id, for the conversation to run in.
func (w *Worktrees) Start(id, name string) (WorktreeOpened, error) {
	root, err := w.main(id)
	if err != nil {
		return WorktreeOpened{}, err
	}
	wt, err := w.manager.New(context.Background(), root, worktree.NewOptions{Name: name})
	if err != nil {
		return WorktreeOpened{}, rejectErr(err)
	}
	proj, err := w.projects.Open(wt.Path)
	if err != nil {
		return WorktreeOpened{Worktree: wt}, err
	}
	return WorktreeOpened{Worktree: wt, Project: proj}, nil
}

// Open opens an existing worktree as a project (to go back to its conversation); one open already is shown.
func (w *Worktrees) Open(id, name string) (WorktreeOpened, error) {
	root, err := w.main(id)
	if err != nil {
		return WorktreeOpened{}, err
	}
	wt, err := w.manager.Get(context.Background(), root, name)
	if err != nil {
		return WorktreeOpened{}, rejectErr(err)
	}
	proj, err := w.projects.Open(wt.Path)
	if err != nil {
		return WorktreeOpened{Worktree: wt}, err
	}
	return WorktreeOpened{Worktree: wt, Project: proj}, nil
}

// Apply brings the worktree's changes into the main checkout as one change (snapshotted first); a conflict
// names the files and changes nothing.
func (w *Worktrees) Apply(id, name string) (worktree.Applied, error) {
	root, err := w.main(id)
	if err != nil {
		return worktree.Applied{}, err
	}
	a, err := w.manager.Apply(context.Background(), root, name)
	if err != nil {
		return worktree.Applied{}, rejectErr(err)
	}
	return a, nil
}

// Commit commits the worktree's changes on its branch; "" when there was nothing to commit.
func (w *Worktrees) Commit(id, name, message string) (string, error) {
	root, err := w.main(id)
	if err != nil {
		return "", err
	}
	commit, err := w.manager.Commit(context.Background(), root, name, message)
	if err != nil {
		return "", rejectErr(err)
	}
	return commit, nil
}

// Discard removes the worktree and its branch. Where the worktree is open as a project, that project is closed
// first (its jobs end); the main checkout is opened, and returned, so the window has a project to show.
func (w *Worktrees) Discard(id, name string) (*Project, error) {
	root, err := w.main(id)
	if err != nil {
		return nil, err
	}
	wt, err := w.manager.Get(context.Background(), root, name)
	if err != nil {
		return nil, rejectErr(err)
	}
	var opened *Project
	for _, ws := range w.set.List() {
		if ws.Root() != wt.Path {
			continue
		}
		p, err := w.projects.Open(root)
		if err != nil {
			return nil, err
		}
		opened = &p
		if err := w.projects.Close(ws.ID()); err != nil {
			return opened, err
		}
	}
	if err := w.manager.Discard(context.Background(), root, name); err != nil {
		return opened, rejectErr(err)
	}
	_ = w.projects.recent.Remove(wt.Path) // a folder that is gone has no place in the recent list
	return opened, nil
}
