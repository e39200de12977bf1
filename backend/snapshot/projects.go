package snapshot

import (
	"os"
	"sync"
)

// Projects holds the shadow repository of the project a session has open, replacing it when the session opens
// another root. Each open workspace (backend/workspace) keeps one of its own, so one project's snapshots never stop
// another's. CacheDir is where shadow repositories live (the user's cache directory).
type Projects struct {
	CacheDir string
	Options  Options
	// Background says the process lives on (the window, the MCP server): repositories may copy the objects they
	// borrow from the project after the first snapshot (Repo.DetachBorrowed).
	Background bool

	mu   sync.Mutex
	root *os.Root
	repo *Repo
	err  error
}

// For returns the repository for the project open as root at abs.
func (p *Projects) For(root *os.Root, abs string) (*Repo, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.root != root {
		if p.repo != nil {
			p.repo.Stop()
		}
		p.root = root
		p.repo, p.err = Open(root, abs, p.CacheDir, p.Options)
		if p.err == nil && p.Background {
			p.repo.DetachBorrowed()
		}
	}
	return p.repo, p.err
}

// Close stops the open repository's background work.
func (p *Projects) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.repo != nil {
		p.repo.Stop()
	}
}

// Current returns the repository of root if it is the one open, else nil.
func (p *Projects) Current(root *os.Root) *Repo {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.root != root {
		return nil
	}
	return p.repo
}
