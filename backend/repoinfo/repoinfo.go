// Package repoinfo describes a project's git repository for the agent's system prompt: the branch, a short status
// and the last few commits. Every git it starts is gitexec's hardened one (no hooks, no fsmonitor, no filters,
// no pager, no optional locks), so describing a repository runs nothing the repository names, and a .gitignore
// that is a named pipe does not hold it up (gitexec.Pipes). It never changes the repository. A folder that is not
// a repository, or a git that fails or takes too long, gives an empty Info.
package repoinfo

import (
	"context"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/rooted-dev/rooted/backend/gitexec"
)

// Info is what the system prompt says about the repository.
type Info struct {
	Branch string   `json:"branch"` // "" when not a repository; "(detached at abc1234)" when detached
	Status []string `json:"status"` // git status --short lines, at most MaxStatus
	// More is how many status lines were left out.
	More    int      `json:"more"`
	Commits []string `json:"commits"` // "abc1234 subject", newest first, at most MaxCommits
}

const (
	MaxStatus  = 20
	MaxCommits = 5
	// timeout bounds each git: a status of a huge tree must not hold the request back.
	timeout = 3 * time.Second
)

// Describe asks git about the repository whose work tree is dir, once: nothing is remembered for the next call.
// A caller that describes the same repository again (a workspace) holds a Repo instead.
func Describe(ctx context.Context, dir string) Info { return New(dir).Describe(ctx) }

// Repo describes one repository, again and again: it remembers the named pipes its last status found git blocked
// on, so the next status opens them from its start rather than after a walk. What it remembers lives and dies
// with the value (one a workspace), and is replaced by each status that finds pipes.
type Repo struct {
	dir   string
	mu    sync.Mutex
	pipes []string
}

// New returns the describer of the repository whose work tree is dir.
func New(dir string) *Repo { return &Repo{dir: dir} }

// Describe asks git about the repository.
func (r *Repo) Describe(ctx context.Context) Info {
	dir := r.dir
	info := Info{Status: []string{}, Commits: []string{}}
	c := gitexec.Cmd{Dir: dir, Read: []string{dir}, Env: []string{"GIT_OPTIONAL_LOCKS=0"}}
	run := func(c gitexec.Cmd, args ...string) (string, bool) {
		ctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		out, err := c.Run(ctx, nil, args...)
		return string(out), err == nil
	}
	top, ok := run(c, "rev-parse", "--is-inside-work-tree")
	if !ok || strings.TrimSpace(top) != "true" {
		return info
	}
	if b, ok := run(c, "symbolic-ref", "--short", "-q", "HEAD"); ok && strings.TrimSpace(b) != "" {
		info.Branch = strings.TrimSpace(b)
	} else if h, ok := run(c, "rev-parse", "--short", "HEAD"); ok {
		info.Branch = "(detached at " + strings.TrimSpace(h) + ")"
	} else {
		info.Branch = "(no commits yet)"
	}
	if log, ok := run(c, "log", "-n", "5", "--no-decorate", "--no-show-signature", "--format=%h %s"); ok {
		for _, l := range strings.Split(strings.TrimSpace(log), "\n") {
			if l != "" && len(info.Commits) < MaxCommits {
				info.Commits = append(info.Commits, l)
			}
		}
	}
	// status reads work-tree files, so filters the repository defines are switched off first, and the named pipes
	// it would block on are opened for it (those found before at once, new ones after a walk).
	if sc, err := c.WithoutFilters(ctx); err == nil {
		if root, err := os.OpenRoot(dir); err == nil {
			defer root.Close()
			sc.Pipes = &gitexec.Pipes{Root: root, Known: r.knownPipes, Found: r.foundPipes}
		}
		if st, ok := run(sc, "-c", "core.quotePath=false", "status", "--short", "--no-renames", "--ignore-submodules=all"); ok {
			for _, l := range strings.Split(strings.TrimRight(st, "\n"), "\n") {
				if l == "" {
					continue
				}
				if len(info.Status) < MaxStatus {
					info.Status = append(info.Status, l)
				} else {
					info.More++
				}
			}
		}
	}
	return info
}

func (r *Repo) knownPipes() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.pipes
}

func (r *Repo) foundPipes(pipes []string) {
	if len(pipes) > 0 {
		r.mu.Lock()
		r.pipes = pipes
		r.mu.Unlock()
	}
}
