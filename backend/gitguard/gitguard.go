// Package gitguard keeps a command from leaving behind, in a project's git folders, what git runs later outside
// any sandbox: git runs its hooks and the programs its configuration names (core.fsmonitor, aliases with !,
// filters, gpg.program, ...) when the user next runs git. Around every command a Guard records what git would read
// in every repository of the project (the project's own, every nested one, submodules in .git/modules, linked
// worktrees, bare repositories; found as git finds them, through .git folders, gitdir files, links and commondir)
// and, if the command changed it, puts it back and says so:
//
//   - a .git folder the command replaced with a gitdir file or a link, or moved, is moved back;
//   - a link, named pipe or other special file the command put inside a git folder is removed;
//   - a configuration file whose program-running settings changed is restored whole, as git's own parser reads it
//     (other changes, such as a new remote or an upstream branch, stay); a configuration file the command created
//     (git init, config.worktree) keeps only the settings a new repository may keep;
//   - an exec line a command left in a stopped rebase's or cherry-pick's todo list is dropped;
//   - a hook the command added or changed is removed or restored, in .git/hooks and in a core.hooksPath inside the
//     work tree (husky's .husky), where the user's next git commit would run it.
//
// Every put-back goes through the project's os.Root (no link followed), and the report says what was put back and
// what could not be, never one for the other. This is the last word after a command; the sandbox's read-only
// binds (package sandbox) keep most of these paths from changing at all while it runs.
//
// The same walk finds, by name at any depth, what other tools run programs from (names.go): dependency folders,
// tool files by the caller's rule (Guard.WithToolNames), and build outputs' runnable files, fingerprinted; so the
// caller protects what exists before a command and judges what it created after it, with no second walk.
package gitguard

import (
	"errors"
	"fmt"
	"io/fs"
	"iter"
	"maps"
	"os"
	"path"
	"slices"
	"strings"
	"time"
)

// Guard is the .git guard of a project (or of several): Scan before a command, RestoreWithin after it. It keeps
// git's readings of the configuration contents it has seen, so that a scan asks git again only for what changed;
// that memory is bounded and the Guard's own. A Guard is safe for concurrent use.
type Guard struct {
	lists configCache
	// isTool is the name rule for tool files (WithToolNames); nil records none.
	isTool func(name string) bool
}

// New returns a Guard.
func New() *Guard { return &Guard{lists: configCache{max: maxListed}} }

// guarded is one file as a command found it: its type, its content (a link's target), and its identity.
type guarded struct {
	mode fs.FileMode
	data []byte
	info fs.FileInfo
	// dest is the git folder a .git file or link leads to (root-relative), "" when it leads out of the project.
	dest string
	// unreadable is a file the guard could not read whole (too large, or no longer a regular file).
	unreadable bool
}

// State is what git would read, in every repository of the project, as one scan found it.
type State struct {
	guard    *Guard
	entries  map[string]guarded // every .git in a work tree: folder, gitdir file or link
	dirs     map[string]string  // git folders (root-relative) -> their work tree ("" for a bare one)
	configs  map[string]guarded // configuration files, and files they include from inside the project
	hooks    map[string]guarded // files git runs as hooks
	pointers map[string]guarded // commondir files: where a linked worktree's git reads its configuration
	links    map[string]guarded // links inside git folders
	odd      map[string]bool    // named pipes, sockets and devices in git folders: git would block on or misread them
	todos    map[string]guarded // an operation's todo list git resumes on --continue (rebase -i, cherry-pick, revert)
	hookDirs map[string]bool    // core.hooksPath folders inside a work tree
	// includes are the files the configuration includes from inside the project, whether or not they exist: git
	// skips a missing one silently, and reads it as soon as it appears.
	includes map[string]bool
	// includedBy is the git folder whose configuration includes a file (first found), for its core.hooksPath.
	includedBy map[string]string
	deps       []string          // dependency folders (node_modules, .venv, ...), outermost only
	tools      []string          // tool files by name (Guard.isTool) outside dependency folders, outermost only
	outputs    map[string]uint64 // runnable files of build outputs, fingerprinted (addOutputs)
	folders    []string          // work-tree folders outside dependency, tool and output folders ("." first)
	budget     int64             // bytes the scan may still hold (scanBudget)
}

// Dirs are the git folders of the project (root-relative), each with its work tree ("" for a bare one).
func (st *State) Dirs() map[string]string { return st.dirs }

// Configs are the configuration files git reads, and files they include from inside the project.
func (st *State) Configs() iter.Seq[string] { return maps.Keys(st.configs) }

// Pointers are the commondir files: where a linked worktree's git reads its configuration.
func (st *State) Pointers() iter.Seq[string] { return maps.Keys(st.pointers) }

// HookDirs are the core.hooksPath folders inside a work tree.
func (st *State) HookDirs() iter.Seq[string] { return maps.Keys(st.hookDirs) }

// Guarded lists every path the guard compares after a command (every .git file and link but folders, configuration
// file and include target, commondir, hook, hooks folder, and link in a git folder but in its data folders; todo
// lists aside): what must also be held during the command, or a tool outside could run a change before the
// comparison.
func (st *State) Guarded() []string {
	var out []string
	for p, e := range st.entries {
		if !e.mode.IsDir() { // a .git folder itself is git's data: what it holds is guarded by name
			out = append(out, p)
		}
	}
	// Todo lists are left out: git rewrites them and removes their folder as a rebase goes on, which a bind would
	// refuse; and only the user's own --continue runs them. The comparison after the command drops their exec
	// lines.
	for _, m := range []map[string]guarded{st.configs, st.hooks, st.pointers} {
		out = append(out, slices.Collect(maps.Keys(m))...)
	}
	for p := range st.links {
		if !skipInGitDir[path.Base(p)] {
			out = append(out, p)
		}
	}
	out = append(out, slices.Collect(maps.Keys(st.hookDirs))...)
	out = append(out, slices.Collect(maps.Keys(st.includes))...)
	slices.Sort(out)
	return slices.Compact(out)
}

// Deps are the dependency folders (DependencyFolders) of the project, outermost only.
func (st *State) Deps() []string { return st.deps }

// Scan records, before a command, what git would read in every repository of the project.
func (g *Guard) Scan(root *os.Root, abs string) *State {
	return g.scan(root, abs)
}

// guardDeadline bounds the guard's look before and after a command. Every file it reads is opened without
// blocking, but a walk over a hung network mount or a stuck git could still take forever: past the deadline the
// guard gives up and fails closed, refusing the command (before) or saying what it did not check (after), rather
// than hanging every call that follows.
const guardDeadline = 2 * time.Minute

// ErrTimeout says the guard did not finish within its deadline.
var ErrTimeout = errors.New("the check of what git runs later did not finish in time")

// ScanWithin is Scan, or ErrTimeout past the deadline.
func (g *Guard) ScanWithin(root *os.Root, abs string) (*State, error) {
	done := make(chan *State, 1)
	go func() { done <- g.Scan(root, abs) }()
	select {
	case st := <-done:
		return st, nil
	case <-time.After(guardDeadline):
		return nil, ErrTimeout
	}
}

// RestoreWithin puts back what a command changed since before was scanned (restore), and returns what it said and
// the project as the command left it (after the put-back); past the deadline it returns ErrTimeout with what was
// not checked, and no state: nothing is said to be put back that was not. (The restore goes on in the background
// and may still finish.)
func (before *State) RestoreWithin(root *os.Root, abs string) ([]string, *State, error) {
	type result struct {
		said  []string
		after *State
	}
	done := make(chan result, 1)
	go func() {
		said, after := before.restore(root, abs)
		done <- result{said, after}
	}()
	select {
	case r := <-done:
		return r.said, r.after, nil
	case <-time.After(guardDeadline):
		return []string{fmt.Sprintf("could not check what git runs later within %s: nothing was put back; run git in this project only after looking at its git folders (hooks, config, rebase-merge)", guardDeadline)}, nil, ErrTimeout
	}
}

// InsideAny reports whether the root-relative path rel is one of dirs or inside one.
func InsideAny(deps []string, rel string) bool {
	for _, d := range deps {
		if rel == d || strings.HasPrefix(rel, d+"/") {
			return true
		}
	}
	return false
}
