package snapshot

import (
	"os"
	"sync"
)

// Projects holds the shadow repository of the project a session has open, replacing it when another root is
// opened. CacheDir is where shadow repositories live (the user's cache directory).
type Projects struct {
	CacheDir string
	Options  Options

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
		p.root = root
		p.repo, p.err = Open(root, abs, p.CacheDir, p.Options)
	}
	return p.repo, p.err
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
