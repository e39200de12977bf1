package app

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/rooted-dev/rooted/backend/tool"
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
	emit     func(name string, data any) // the window's events; nil in tests that do not listen
}

// WorktreeOpened is a worktree made (or chosen) for a conversation and opened as the project.
type WorktreeOpened struct {
	Worktree worktree.Worktree `json:"worktree"`
	Project  Project           `json:"project"`
}

// newWorktrees returns the bound service, or one that refuses every call when there is no cache folder. A
// worktree's setup command runs in a workspace composed from the window's own options (its settings store, its
// proxy for an allow-listed network).
func newWorktrees(set *workspace.Set, p *Projects, emit func(string, any)) *Worktrees {
	m, err := worktree.ForUser(set.Options)
	if err != nil {
		return &Worktrees{set: set, projects: p, emit: emit} // main() refuses every call
	}
	m.Setup = announced{m.Setup}
	// Projects marks a worktree as one, so the window's rail and bar can say of what and on which branch.
	p.owner = m.Owner
	return &Worktrees{set: set, projects: p, manager: m, emit: emit}
}

// announced is a setup Runner that says, on the call's live output, which command it runs before running it: a
// setup command is often slow (npm ci), and the window shows what it waits for.
type announced struct{ worktree.Runner }

func (a announced) RunSetup(ctx context.Context, dir string, argv []string) worktree.SetupResult {
	if p := tool.ProgressFrom(ctx); p != nil {
		p(streamStatus, []byte("running the setup command: "+strings.Join(argv, " ")+"\n"))
	}
	return a.Runner.RunSetup(ctx, dir, argv)
}

// streamStatus is the stream of a call's live output that says what step it is at, beside the commands' stdout
// and stderr.
const streamStatus = "status"

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

// Of returns the worktree open project id is, with how many files it changed since its base; nil when the
// project is a main checkout (or its worktree's record is gone).
func (w *Worktrees) Of(id string) (*worktree.Worktree, error) {
	if w.manager == nil {
		return nil, nil
	}
	ws, err := open(w.set, id)
	if err != nil {
		return nil, err
	}
	own, ok := w.manager.Owner(ws.Root())
	if !ok {
		return nil, nil
	}
	wt, err := w.manager.Status(context.Background(), own.Project, own.Name)
	if err != nil {
		return nil, rejectErr(err)
	}
	return &wt, nil
}

// Start makes a worktree named after the conversation (its setup command run in it) and opens it as a project
// beside project id, for the conversation to run in. With a callID, what it does as it does it (the step, then
// the setup command's output) comes as EventToolOutput events of that id, as a running tool's output does.
func (w *Worktrees) Start(id, name, callID string) (WorktreeOpened, error) {
	root, err := w.main(id)
	if err != nil {
		return WorktreeOpened{}, err
	}
	ctx := context.Background()
	say := func(string) {}
	if callID != "" && w.emit != nil {
		st := newStreamer(callID, func(o ToolOutput) { w.emit(EventToolOutput, o) })
		defer st.close()
		ctx = tool.WithProgress(ctx, st.write)
		say = func(s string) { st.write(streamStatus, []byte(s+"\n")) }
	}
	say("making the worktree: git worktree add, on a new branch from " + filepath.Base(root) + "'s HEAD")
	wt, err := w.manager.New(ctx, root, worktree.NewOptions{Name: name})
	if err == nil {
		say("opening " + wt.Branch + " as a project")
	}
	return w.opened(wt, err)
}

// Open opens an existing worktree as a project (to go back to its conversation); one open already is shown.
func (w *Worktrees) Open(id, name string) (WorktreeOpened, error) {
	root, err := w.main(id)
	if err != nil {
		return WorktreeOpened{}, err
	}
	return w.opened(w.manager.Get(context.Background(), root, name))
}

// opened opens worktree wt (which err, when set, says could not be had) as a project.
func (w *Worktrees) opened(wt worktree.Worktree, err error) (WorktreeOpened, error) {
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
