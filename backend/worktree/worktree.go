// Package worktree gives a conversation a checkout of its own: a git worktree of the project, on a branch of its
// own, in Rooted's cache folder (never inside the project), which the conversation opens as its project root. What
// it does there (edits, commands, installs) cannot touch the main checkout until the user brings it home: Apply
// (the whole change, committed or not, as one change to the main checkout), Commit (kept on the branch), or
// Discard (worktree and branch removed).
//
// Guarantees: every git runs through gitexec (hardened, sandboxed where the process may, the project's attribute
// filters off); the setup command runs as exec_shell runs commands (allowlist, sandbox), in the worktree. Apply
// checks every file before it writes any: a file only the worktree changed since its base takes the worktree's
// version; a file both changed is merged line by line (git merge-file, the base as ancestor, on private copies);
// a merge that clashes, a binary file or symbolic link changed on both sides, or a file deleted on one side and
// changed on the other is a conflict, reported by path (with the clashing lines on each side), and nothing is
// written; otherwise the main checkout is snapshotted first and each file is written atomically through an
// os.Root, and a failed write puts back those already written.
//
// Not guaranteed: renames are not followed (a file renamed in the worktree and changed in the main checkout is a
// conflict); submodules in the change are refused; files the worktree's .gitignore ignores are not carried over.
package worktree

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/tool"
)

// Worktree is one conversation's checkout.
type Worktree struct {
	Name    string `json:"name"`    // the folder's name, unique per project
	Branch  string `json:"branch"`  // the branch it is on
	Path    string `json:"path"`    // its folder: the conversation's project root
	Project string `json:"project"` // the main checkout
	Base    string `json:"base"`    // the commit it was made from
	// Created is when it was made.
	Created time.Time `json:"created"`
	// Changed counts the files that differ from Base (committed on the branch or not); -1 when it could not be
	// read (the folder is gone).
	Changed int `json:"changed_files"`
	// Setup is what the project's setup command did, when one ran (New only).
	Setup *SetupResult `json:"setup,omitempty"`
}

// SetupResult is what the setup command printed and how it ended.
type SetupResult struct {
	Command  []string `json:"command"`
	ExitCode int      `json:"exit_code"`
	Output   string   `json:"output,omitempty"`
	Error    string   `json:"error,omitempty"` // it could not run, or failed
}

// Runner runs the project's setup command in a new worktree (dir), as the agent's commands run.
type Runner interface {
	RunSetup(ctx context.Context, dir string, argv []string) SetupResult
}

// Snapshotter records the main checkout (root, open at abs) before Apply changes paths, returning the snapshot's id.
type Snapshotter interface {
	Before(ctx context.Context, root *os.Root, abs, reason string, paths []string) (string, error)
}

// seeder is a Snapshotter that can start a new worktree's shadow repository from the index git wrote for it.
type seeder interface {
	Seed(ctx context.Context, dir, index, objects string) error
}

// Manager makes and brings home the worktrees of projects. CacheDir is the user's cache folder.
type Manager struct {
	CacheDir string
	// Setup runs setup commands; nil runs none.
	Setup Runner
	// Snapshots records the main checkout before Apply; nil: Apply refuses (nothing is changed unsnapshotted).
	Snapshots Snapshotter
	// Settings, when set, gives each worktree the settings of its project (allowlist, rules, network, setup
	// command): the worktree is opened as a project of its own, and must not be a way around them. Discard
	// forgets them.
	Settings *settings.Store
}

// NewOptions say how to make a worktree.
type NewOptions struct {
	// Name is the conversation's name (or title): the branch and folder are named after it, made unique.
	Name string
	// Branch, when set, is the exact branch to create; refused with branch_exists when it exists.
	Branch string
	// Setup is the command to run in the new worktree; nil: the project's worktree_setup setting, if any; empty
	// and not nil: none.
	Setup []string
}

// folder is where the worktrees of the repository at top live: per project, in the cache.
func (m *Manager) folder(top string) string {
	sum := sha256.Sum256([]byte(top))
	return filepath.Join(m.CacheDir, "rooted", "worktrees", filepath.Base(top)+"-"+hex.EncodeToString(sum[:8]))
}

// New makes a worktree of project on a new branch from its HEAD, then runs the setup command in it.
func (m *Manager) New(ctx context.Context, project string, opt NewOptions) (Worktree, error) {
	if m.CacheDir == "" {
		return Worktree{}, tool.Errorf(tool.CodeInternal, "no cache folder to keep worktrees in")
	}
	r, err := openRepo(ctx, project)
	if err != nil {
		return Worktree{}, err
	}
	base, err := r.head(ctx, r.top)
	if err != nil {
		return Worktree{}, err
	}
	dir := m.folder(r.top)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return Worktree{}, err
	}
	name, branch, err := m.choose(ctx, r, dir, opt)
	if err != nil {
		return Worktree{}, err
	}
	w := Worktree{Name: name, Branch: branch, Path: filepath.Join(dir, name), Project: r.top, Base: base, Created: time.Now().UTC()}
	g, err := r.filtered(ctx, r.top, dir)
	if err != nil {
		return Worktree{}, err
	}
	if _, err := g.Run(ctx, nil, "worktree", "add", "--quiet", "-b", branch, "--", w.Path, base); err != nil {
		_ = os.RemoveAll(w.Path)
		return Worktree{}, tool.Errorf(tool.CodeInternal, "making the worktree failed, nothing was kept: %v", err)
	}
	if err := writeMeta(dir, w); err != nil {
		_ = m.remove(ctx, r, w)
		return Worktree{}, err
	}
	if seeder, ok := m.Snapshots.(seeder); ok {
		// A seed is only a head start: without one the first snapshot hashes the files itself.
		if index, err := r.indexOf(ctx, w.Path); err == nil {
			_ = seeder.Seed(ctx, w.Path, index, filepath.Join(r.common, "objects"))
		}
	}
	setup := opt.Setup
	if m.Settings != nil {
		p, err := m.Settings.Project(r.top)
		if err == nil {
			err = m.Settings.SetProject(w.Path, p)
		}
		if err != nil {
			_ = m.remove(ctx, r, w)
			return Worktree{}, tool.Errorf(tool.CodeInternal, "the project's settings could not be given to the worktree, so it was removed: %v", err)
		}
		if setup == nil {
			setup = p.WorktreeSetup
		}
	}
	if len(setup) > 0 && m.Setup != nil {
		res := m.Setup.RunSetup(ctx, w.Path, setup)
		w.Setup = &res
	}
	return w, nil
}

// choose names the worktree and its branch: opt.Branch exactly, or rooted/<name> made unique.
func (m *Manager) choose(ctx context.Context, r repo, dir string, opt NewOptions) (name, branch string, err error) {
	taken := func(name, branch string) bool {
		_, statErr := os.Lstat(filepath.Join(dir, name))
		_, metaErr := os.Lstat(filepath.Join(dir, name+".json"))
		return r.hasBranch(ctx, branch) || !errors.Is(statErr, fs.ErrNotExist) || !errors.Is(metaErr, fs.ErrNotExist)
	}
	if opt.Branch != "" {
		if !r.validBranch(ctx, opt.Branch) {
			return "", "", &tool.Error{Code: tool.CodeInvalidArgument, Field: "branch", Message: fmt.Sprintf("%q is not a valid branch name; nothing was changed", opt.Branch)}
		}
		if r.hasBranch(ctx, opt.Branch) {
			return "", "", &tool.Error{Code: tool.CodeBranchExists, Field: "branch", Message: fmt.Sprintf("the branch %s already exists; choose another name, or discard the worktree that uses it; nothing was changed", opt.Branch)}
		}
		base := Slug(strings.ReplaceAll(opt.Branch, "/", "-"))
		for i := 1; ; i++ {
			name = base
			if i > 1 {
				name += "-" + strconv.Itoa(i)
			}
			if !taken(name, opt.Branch) || i > 1000 {
				return name, opt.Branch, nil
			}
		}
	}
	base := Slug(opt.Name)
	for i := 1; i <= 1000; i++ {
		name = base
		if i > 1 {
			name += "-" + strconv.Itoa(i)
		}
		branch = "rooted/" + name
		if !taken(name, branch) {
			if !r.validBranch(ctx, branch) {
				return "", "", &tool.Error{Code: tool.CodeInvalidArgument, Field: "name", Message: fmt.Sprintf("no valid branch can be named after %q; nothing was changed", opt.Name)}
			}
			return name, branch, nil
		}
	}
	return "", "", &tool.Error{Code: tool.CodeBranchExists, Field: "name", Message: fmt.Sprintf("every branch named after %q is taken; nothing was changed", opt.Name)}
}

// Slug turns a conversation's name into a folder and branch name: lower-case letters, digits and single dashes,
// at most 48 characters, "conversation" when nothing is left.
func Slug(name string) string {
	var b strings.Builder
	dash := false
	for _, c := range strings.ToLower(name) {
		ok := (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
		switch {
		case ok:
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(c)
		default:
			dash = true
		}
		if b.Len() >= 48 {
			break
		}
	}
	s := strings.Trim(b.String(), "-")
	if len(s) > 48 {
		s = strings.Trim(s[:48], "-")
	}
	if s == "" {
		return "conversation"
	}
	return s
}

// List returns project's worktrees, oldest first, each with the number of files it changed.
func (m *Manager) List(ctx context.Context, project string) ([]Worktree, error) {
	r, err := openRepo(ctx, project)
	if err != nil {
		return nil, err
	}
	list, err := readMetas(m.folder(r.top))
	if err != nil {
		return nil, err
	}
	for i := range list {
		list[i].Changed = r.count(ctx, list[i])
	}
	return list, nil
}

// count is how many files w differs from its base in, committed or not; -1 when that cannot be read.
func (r repo) count(ctx context.Context, w Worktree) int {
	tree, err := r.stateTree(ctx, w.Path)
	if err != nil {
		return -1
	}
	ch, err := r.changes(ctx, w.Base, tree)
	if err != nil {
		return -1
	}
	return len(ch)
}

// Status is Get with the number of files the worktree changed counted, as List counts them.
func (m *Manager) Status(ctx context.Context, project, name string) (Worktree, error) {
	r, err := openRepo(ctx, project)
	if err != nil {
		return Worktree{}, err
	}
	w, err := m.get(r, name)
	if err != nil {
		return Worktree{}, err
	}
	w.Changed = r.count(ctx, w)
	return w, nil
}

// Get returns project's worktree called name.
func (m *Manager) Get(ctx context.Context, project, name string) (Worktree, error) {
	r, err := openRepo(ctx, project)
	if err != nil {
		return Worktree{}, err
	}
	return m.get(r, name)
}

func (m *Manager) get(r repo, name string) (Worktree, error) {
	if name == "" || name != filepath.Base(name) || strings.HasPrefix(name, ".") {
		return Worktree{}, &tool.Error{Code: tool.CodeInvalidArgument, Field: "name", Message: fmt.Sprintf("%q is not a worktree's name (rooted worktree list shows them)", name)}
	}
	b, err := os.ReadFile(filepath.Join(m.folder(r.top), name+".json"))
	var w Worktree
	if err == nil {
		err = json.Unmarshal(b, &w)
	}
	if err != nil {
		return Worktree{}, &tool.Error{Code: tool.CodeNotFound, Path: name, Message: fmt.Sprintf("%s has no worktree called %s (rooted worktree list shows them)", r.top, name)}
	}
	return w, nil
}

// Owner returns the worktree whose folder is dir (a conversation's root), if dir is one this manager made.
func (m *Manager) Owner(dir string) (Worktree, bool) {
	abs, err := filepath.Abs(dir)
	if err != nil || m.CacheDir == "" {
		return Worktree{}, false
	}
	b, err := os.ReadFile(abs + ".json")
	if err != nil {
		return Worktree{}, false
	}
	var w Worktree
	if json.Unmarshal(b, &w) != nil || w.Path != abs {
		return Worktree{}, false
	}
	if rel, err := filepath.Rel(filepath.Join(m.CacheDir, "rooted", "worktrees"), abs); err != nil || strings.HasPrefix(rel, "..") {
		return Worktree{}, false
	}
	return w, true
}

// Commit commits everything the worktree holds (new, changed and deleted files; not ignored ones) on its branch.
// It returns the new commit, or "" when there was nothing to commit.
func (m *Manager) Commit(ctx context.Context, project, name, message string) (string, error) {
	r, err := openRepo(ctx, project)
	if err != nil {
		return "", err
	}
	w, err := m.get(r, name)
	if err != nil {
		return "", err
	}
	if message == "" {
		message = "Rooted: " + w.Name
	}
	g, err := r.filtered(ctx, w.Path)
	if err != nil {
		return "", err
	}
	if _, err := g.Run(ctx, nil, "add", "--all", "--", "."); err != nil {
		return "", err
	}
	if _, err := g.Run(ctx, nil, "diff", "--cached", "--quiet", "--no-ext-diff"); err == nil {
		return "", nil
	}
	g.Env = append(g.Env, r.identity(ctx, w.Path)...)
	if _, err := g.Run(ctx, nil, "commit", "--quiet", "--no-verify", "--no-gpg-sign", "-m", message); err != nil {
		return "", err
	}
	return r.head(ctx, w.Path)
}

// Discard removes the worktree, its folder (whatever it holds) and its branch.
func (m *Manager) Discard(ctx context.Context, project, name string) error {
	r, err := openRepo(ctx, project)
	if err != nil {
		return err
	}
	w, err := m.get(r, name)
	if err != nil {
		return err
	}
	return m.remove(ctx, r, w)
}

func (m *Manager) remove(ctx context.Context, r repo, w Worktree) error {
	dir := m.folder(r.top)
	g := r.git(r.top, dir)
	if _, err := g.Run(ctx, nil, "worktree", "remove", "--force", "--force", "--", w.Path); err != nil {
		// A folder removed by hand leaves a record git drops on prune; anything else is a real failure.
		if _, statErr := os.Lstat(w.Path); !errors.Is(statErr, fs.ErrNotExist) {
			return tool.Errorf(tool.CodeInternal, "removing the worktree %s failed, the branch is kept: %v", w.Path, err)
		}
		if _, err := g.Run(ctx, nil, "worktree", "prune"); err != nil {
			return err
		}
	}
	if r.hasBranch(ctx, w.Branch) {
		if _, err := r.git(r.top).Run(ctx, nil, "branch", "-D", "--", w.Branch); err != nil {
			return tool.Errorf(tool.CodeInternal, "the worktree was removed but its branch %s was not: %v", w.Branch, err)
		}
	}
	if m.Settings != nil {
		if err := m.Settings.RemoveProject(w.Path); err != nil {
			return err
		}
	}
	if err := os.Remove(filepath.Join(dir, w.Name+".json")); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

func writeMeta(dir string, w Worktree) error {
	b, err := json.MarshalIndent(w, "", "  ")
	if err != nil {
		return err
	}
	tmp := filepath.Join(dir, "."+w.Name+".json.tmp")
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(dir, w.Name+".json"))
}

func readMetas(dir string) ([]Worktree, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var list []Worktree
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		var w Worktree
		if err != nil || json.Unmarshal(b, &w) != nil {
			continue
		}
		list = append(list, w)
	}
	slices.SortFunc(list, func(a, b Worktree) int { return a.Created.Compare(b.Created) })
	return list, nil
}
