package workspace

import (
	"context"
	"errors"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/rooted-dev/rooted/backend/index"
	"github.com/rooted-dev/rooted/backend/sched"
	"github.com/rooted-dev/rooted/backend/session"
)

// ErrNotOpen says no open workspace has the id.
var ErrNotOpen = errors.New("no open project has this id")

// Set holds the workspaces a process has open, by id. An id is the project folder's name and a counter of the
// set's openings ("rooted-3"): readable in logs and the window, unique for the process's life, never reused
// after its workspace closes (a late call with it fails rather than reaching a project opened since). A folder
// open already is not opened twice: Open returns its workspace.
//
// The memory limit of the process follows the sum of the open workspaces' search budgets (index.MemoryLimit).
type Set struct {
	// Options compose every workspace the set opens; Limit is the set's own. Set Options.Settings so the
	// workspaces share one settings store.
	Options Options

	mu     sync.Mutex
	seq    int
	open   []*Workspace // in the order opened
	limit  index.MemoryLimit
	sched  *sched.Scheduler // the workspaces' scheduler, unless Options name one
	closed bool
}

// ErrClosed says the set was closed (the process is exiting).
var ErrClosed = errors.New("the workspaces are closed")

// Open opens root as a workspace, or returns the workspace that has it open already (existing true).
func (s *Set) Open(ctx context.Context, root string) (w *Workspace, existing bool, err error) {
	abs, err := resolve(root)
	if err != nil {
		return nil, false, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, false, ErrClosed
	}
	for _, w := range s.open {
		if w.Root() == abs {
			return w, true, nil
		}
	}
	s.seq++
	id := filepath.Base(abs) + "-" + strconv.Itoa(s.seq)
	opt := s.Options
	opt.Limit = &s.limit
	if opt.Sched == nil {
		if s.sched == nil {
			s.sched = sched.New()
		}
		opt.Sched = s.sched
	}
	if w, err = Open(ctx, root, id, opt); err != nil {
		return nil, false, err
	}
	s.open = append(s.open, w)
	return w, false, nil
}

// resolve is root as a session resolves it (absolute, symbolic links followed), to find it among those open.
func resolve(root string) (string, error) {
	s, err := session.Open(root)
	if err != nil {
		return "", err
	}
	defer s.Close()
	info, err := s.Info()
	return info.Root, err
}

// Get returns the open workspace id.
func (s *Set) Get(id string) (*Workspace, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, w := range s.open {
		if w.id == id {
			return w, nil
		}
	}
	return nil, ErrNotOpen
}

// List returns the open workspaces in the order they were opened.
func (s *Set) List() []*Workspace {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*Workspace(nil), s.open...)
}

// Close closes workspace id (its jobs, index, watcher, snapshots' work) and forgets it; the others go on.
func (s *Set) Close(id string) error {
	s.mu.Lock()
	var w *Workspace
	for i, o := range s.open {
		if o.id == id {
			w = o
			s.open = append(s.open[:i], s.open[i+1:]...)
			break
		}
	}
	s.mu.Unlock()
	if w == nil {
		return ErrNotOpen
	}
	return w.Close()
}

// CloseAll closes every workspace and refuses new ones: the process is exiting.
func (s *Set) CloseAll() {
	s.mu.Lock()
	open := s.open
	s.open, s.closed = nil, true
	s.mu.Unlock()
	var wg sync.WaitGroup
	for _, w := range open {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = w.Close()
		}()
	}
	wg.Wait()
}

// Limit is the memory limit the set's workspaces count toward (index.MemoryLimit.Limit).
func (s *Set) Limit() int64 { return s.limit.Limit() }
