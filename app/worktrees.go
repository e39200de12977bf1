package app

import (
	"context"

	"github.com/rooted-dev/rooted/backend/session"
	"github.com/rooted-dev/rooted/backend/tool"
	"github.com/rooted-dev/rooted/backend/tools"
	"github.com/rooted-dev/rooted/backend/worktree"
)

// Worktrees gives a conversation a checkout of its own (package worktree): a git worktree of the open project,
// which the window opens as the project root, so the conversation's edits, commands and snapshots happen there
// and the main checkout is untouched until Apply. Every method acts on the main checkout's worktrees, whether the
// main checkout or one of its worktrees is open.
type Worktrees struct {
	session  *session.Session
	projects *Projects
	manager  *worktree.Manager
}

// WorktreeOpened is a worktree made (or chosen) for a conversation and opened as the project.
type WorktreeOpened struct {
	Worktree worktree.Worktree `json:"worktree"`
	Project  Project           `json:"project"`
}

// newWorktrees returns the bound service, or one that refuses every call when there is no cache folder.
func newWorktrees(s *session.Session, p *Projects, deps tools.Deps) *Worktrees {
	m, err := worktree.ForUser(deps.Settings, func(s *session.Session) tools.Deps { return tools.UserDeps(s, false) })
	if err != nil {
		return &Worktrees{session: s, projects: p} // main() refuses every call
	}
	return &Worktrees{session: s, projects: p, manager: m}
}

// main returns the main checkout of the open project: the project itself, or the one the open worktree was made
// from.
func (w *Worktrees) main() (string, error) {
	if w.manager == nil {
		return "", reject(tool.Errorf(tool.CodeInternal, "no cache folder to keep worktrees in"))
	}
	info, err := w.session.Info()
	if err != nil {
		return "", reject(tool.Errorf(tool.CodeNoProject, "no project is open"))
	}
	if wt, ok := w.manager.Owner(info.Root); ok {
		return wt.Project, nil
	}
	return info.Root, nil
}

// List returns the open project's worktrees, each with how many files it changed.
func (w *Worktrees) List() ([]worktree.Worktree, error) {
	root, err := w.main()
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

// Start makes a worktree named after the conversation (its setup command run in it) and opens it as the project,
// for the conversation to run in.
func (w *Worktrees) Start(name string) (WorktreeOpened, error) {
	root, err := w.main()
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

// Open opens an existing worktree as the project (to go back to its conversation).
func (w *Worktrees) Open(name string) (WorktreeOpened, error) {
	root, err := w.main()
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
func (w *Worktrees) Apply(name string) (worktree.Applied, error) {
	root, err := w.main()
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
func (w *Worktrees) Commit(name, message string) (string, error) {
	root, err := w.main()
	if err != nil {
		return "", err
	}
	id, err := w.manager.Commit(context.Background(), root, name, message)
	if err != nil {
		return "", rejectErr(err)
	}
	return id, nil
}

// Discard removes the worktree and its branch. When it is the open project, the main checkout is opened first.
func (w *Worktrees) Discard(name string) (*Project, error) {
	root, err := w.main()
	if err != nil {
		return nil, err
	}
	wt, err := w.manager.Get(context.Background(), root, name)
	if err != nil {
		return nil, rejectErr(err)
	}
	var opened *Project
	if info, err := w.session.Info(); err == nil && info.Root == wt.Path {
		p, err := w.projects.Open(root)
		if err != nil {
			return nil, err
		}
		opened = &p
	}
	if err := w.manager.Discard(context.Background(), root, name); err != nil {
		return opened, rejectErr(err)
	}
	_ = w.projects.recent.Remove(wt.Path) // a folder that is gone has no place in the recent list
	return opened, nil
}
