package worktree

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"maps"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rooted-dev/rooted/backend/session"
	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/shell"
	"github.com/rooted-dev/rooted/backend/snapshot"
	"github.com/rooted-dev/rooted/backend/testtree"
	"github.com/rooted-dev/rooted/backend/tool"
	"github.com/rooted-dev/rooted/backend/tools"
	"github.com/rooted-dev/rooted/backend/workspace"
)

// files reads every file under dir but .git (a symlink as "-> target", an executable with a "+x " prefix): what
// a user would call the checkout's content.
func files(t *testing.T, dir string) map[string]string {
	t.Helper()
	got := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.Name() == ".git" {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			got[filepath.ToSlash(rel)] = "-> " + target
		case fi.Mode().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			prefix := ""
			if fi.Mode().Perm()&0o111 != 0 {
				prefix = "+x "
			}
			got[filepath.ToSlash(rel)] = prefix + string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func manager(t *testing.T) *Manager {
	cache := t.TempDir()
	return &Manager{CacheDir: cache, Snapshots: ShadowSnapshots{CacheDir: cache}}
}

func codeOf(err error) string {
	var te *tool.Error
	if errors.As(err, &te) {
		return te.Code
	}
	return ""
}

var project = map[string]string{
	"a.txt":          "alpha\n",
	"b.txt":          "bravo\n",
	"dir/c.txt":      "charlie\n",
	"run.sh (0o755)": "#!/bin/sh\necho run\n",
	"keep.txt":       "untouched\n",
}

func TestRoundTrip(t *testing.T) {
	ctx := context.Background()
	main := testtree.Repo(t, project)
	m := manager(t)
	head := testtree.Git(t, main, "rev-parse", "HEAD")

	w, err := m.New(ctx, main, NewOptions{Name: "Fix the parser!"})
	if err != nil {
		t.Fatal(err)
	}
	if w.Branch != "rooted/fix-the-parser" || w.Name != "fix-the-parser" || w.Base != strings.TrimSpace(head) {
		t.Fatalf("New = %+v", w)
	}
	if rel, _ := filepath.Rel(main, w.Path); !strings.HasPrefix(rel, "..") {
		t.Fatalf("the worktree %s is inside the project %s", w.Path, main)
	}
	if rel, _ := filepath.Rel(m.CacheDir, w.Path); strings.HasPrefix(rel, "..") {
		t.Fatalf("the worktree %s is not in the cache %s", w.Path, m.CacheDir)
	}
	if got, want := files(t, w.Path), files(t, main); !maps.Equal(got, want) {
		t.Fatalf("the new worktree holds %v, the project %v", got, want)
	}
	before := files(t, main)

	// Work in the worktree: a commit on the branch, then uncommitted changes on top of it.
	testtree.Write(t, w.Path, map[string]string{"a.txt": "alpha, fixed\n", "new/d.txt": "delta\n"})
	if err := os.Remove(filepath.Join(w.Path, "b.txt")); err != nil {
		t.Fatal(err)
	}
	commit, err := m.Commit(ctx, main, w.Name, "first half")
	if err != nil || commit == "" {
		t.Fatalf("Commit = %q, %v", commit, err)
	}
	if got := strings.TrimSpace(testtree.Git(t, main, "rev-parse", w.Branch)); got != commit {
		t.Fatalf("branch %s is at %s, want the commit %s", w.Branch, got, commit)
	}
	if again, err := m.Commit(ctx, main, w.Name, ""); err != nil || again != "" {
		t.Fatalf("a second Commit with nothing new = %q, %v; want nothing committed", again, err)
	}
	testtree.Write(t, w.Path, map[string]string{"dir/c.txt": "charlie 2\n", "run.sh (0o755)": "#!/bin/sh\necho ran\n"})
	if err := os.Symlink("a.txt", filepath.Join(w.Path, "link")); err != nil {
		t.Fatal(err)
	}

	list, err := m.List(ctx, main)
	if err != nil || len(list) != 1 {
		t.Fatalf("List = %+v, %v", list, err)
	}
	if l := list[0]; l.Branch != w.Branch || l.Path != w.Path || l.Base != w.Base || l.Changed != 6 {
		t.Fatalf("List = %+v, want %s at %s from %s with 6 files changed", l, w.Branch, w.Path, w.Base)
	}
	if got := files(t, main); !maps.Equal(got, before) {
		t.Fatalf("the main checkout changed before Apply: %v", got)
	}
	if got := testtree.Git(t, main, "rev-parse", "HEAD"); got != head {
		t.Fatalf("the main checkout's HEAD moved to %s", got)
	}

	applied, err := m.Apply(ctx, main, w.Name)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := files(t, main), files(t, w.Path); !maps.Equal(got, want) {
		t.Fatalf("after Apply the main checkout holds\n%v\nthe worktree\n%v", got, want)
	}
	slices.Sort(applied.Changed)
	if want := []string{"a.txt", "b.txt", "dir/c.txt", "link", "new/d.txt", "run.sh"}; !slices.Equal(applied.Changed, want) {
		t.Fatalf("Apply changed %v, want %v", applied.Changed, want)
	}
	// The snapshot taken first holds the main checkout as it was: restoring it undoes the Apply.
	root, err := os.OpenRoot(main)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	repo, err := snapshot.Open(root, main, m.CacheDir, snapshot.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Stop()
	if _, err := repo.Restore(ctx, applied.Snapshot, nil); err != nil {
		t.Fatal(err)
	}
	if got := files(t, main); !maps.Equal(got, before) {
		t.Fatalf("restoring Apply's snapshot left %v, want %v", got, before)
	}

	if err := m.Discard(ctx, main, w.Name); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(w.Path); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the worktree's folder is still there: %v", err)
	}
	if out := testtree.Git(t, main, "branch", "--list", w.Branch); out != "" {
		t.Fatalf("the branch is still there: %q", out)
	}
	if out := testtree.Git(t, main, "worktree", "list", "--porcelain"); strings.Contains(out, w.Path) {
		t.Fatalf("git still records the worktree: %s", out)
	}
	if list, err := m.List(ctx, main); err != nil || len(list) != 0 {
		t.Fatalf("List after Discard = %+v, %v", list, err)
	}
}

func TestApplyConflictChangesNothing(t *testing.T) {
	ctx := context.Background()
	main := testtree.Repo(t, project)
	m := manager(t)
	w, err := m.New(ctx, main, NewOptions{Name: "conflict"})
	if err != nil {
		t.Fatal(err)
	}
	testtree.Write(t, w.Path, map[string]string{"a.txt": "alpha from the worktree\n", "b.txt": "bravo from the worktree\n", "dir/c.txt": "same in both\n", "e.txt": "new in both\n", "f.txt": "new\n"})
	testtree.Write(t, main, map[string]string{"a.txt": "alpha from the user\n", "dir/c.txt": "same in both\n", "e.txt": "other\n"})
	before, wtBefore := files(t, main), files(t, w.Path)

	_, err = m.Apply(ctx, main, w.Name)
	var te *tool.Error
	if !errors.As(err, &te) || te.Code != tool.CodeConflict {
		t.Fatalf("Apply = %v, want %s", err, tool.CodeConflict)
	}
	var named []string
	for _, c := range te.Details["conflicts"].([]Conflict) {
		named = append(named, c.Path)
	}
	if want := []string{"a.txt", "e.txt"}; !slices.Equal(named, want) {
		t.Fatalf("conflicts named %v, want %v (%s)", named, want, te.Message)
	}
	if !strings.Contains(te.Message, "a.txt") || !strings.Contains(te.Message, "e.txt") {
		t.Fatalf("the message names no file: %s", te.Message)
	}
	if got := files(t, main); !maps.Equal(got, before) {
		t.Fatalf("a refused Apply changed the main checkout: %v, want %v", got, before)
	}
	if got := files(t, w.Path); !maps.Equal(got, wtBefore) {
		t.Fatalf("a refused Apply changed the worktree")
	}

	// Once the user's change is resolved (put back), the same Apply goes through; the file both made the same
	// way is left alone.
	testtree.Write(t, main, map[string]string{"a.txt": "alpha\n"})
	if err := os.Remove(filepath.Join(main, "e.txt")); err != nil {
		t.Fatal(err)
	}
	applied, err := m.Apply(ctx, main, w.Name)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(applied.Same, []string{"dir/c.txt"}) {
		t.Fatalf("Same = %v, want dir/c.txt", applied.Same)
	}
	if got, want := files(t, main), files(t, w.Path); !maps.Equal(got, want) {
		t.Fatalf("after Apply the main checkout holds %v, the worktree %v", got, want)
	}
}

func TestRefusals(t *testing.T) {
	ctx := context.Background()
	plain := testtree.Dir(t, map[string]string{"a.txt": "a\n"})
	empty := testtree.Dir(t, map[string]string{"a.txt": "a\n"})
	testtree.Git(t, empty, "init", "-q")
	repo := testtree.Repo(t, map[string]string{"sub/a.txt": "a\n"})
	testtree.Git(t, repo, "branch", "taken")
	m := manager(t)
	for _, tc := range []struct {
		name, project string
		opt           NewOptions
		code          string
	}{
		{"not a repository", plain, NewOptions{Name: "x"}, tool.CodeNotARepository},
		{"no commit", empty, NewOptions{Name: "x"}, tool.CodeNoCommit},
		{"a folder inside a repository", filepath.Join(repo, "sub"), NewOptions{Name: "x"}, tool.CodeNotARepository},
		{"branch exists", repo, NewOptions{Branch: "taken"}, tool.CodeBranchExists},
		{"invalid branch", repo, NewOptions{Branch: "a..b"}, tool.CodeInvalidArgument},
		{"option-like branch", repo, NewOptions{Branch: "-f"}, tool.CodeInvalidArgument},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := files(t, tc.project)
			_, err := m.New(ctx, tc.project, tc.opt)
			if codeOf(err) != tc.code {
				t.Fatalf("New = %v, want %s", err, tc.code)
			}
			if got := files(t, tc.project); !maps.Equal(got, before) {
				t.Fatalf("a refused New changed the project")
			}
			if entries, _ := os.ReadDir(m.folder(tc.project)); len(entries) != 0 {
				t.Fatalf("a refused New left %v in the cache", entries)
			}
		})
	}
	for _, name := range []string{"missing", "../x", ""} {
		if _, err := m.Apply(ctx, repo, name); codeOf(err) != tool.CodeNotFound && codeOf(err) != tool.CodeInvalidArgument {
			t.Errorf("Apply(%q) = %v, want not_found or invalid_argument", name, err)
		}
	}
}

func TestNamesAreUnique(t *testing.T) {
	ctx := context.Background()
	main := testtree.Repo(t, project)
	testtree.Git(t, main, "branch", "rooted/review")
	m := manager(t)
	var names []string
	for range 2 {
		w, err := m.New(ctx, main, NewOptions{Name: "Review"})
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, w.Branch)
	}
	if want := []string{"rooted/review-2", "rooted/review-3"}; !slices.Equal(names, want) {
		t.Fatalf("branches %v, want %v", names, want)
	}
	for in, want := range map[string]string{"": "conversation", "  Ünïcode ✓ ": "n-code", "a/b..c": "a-b-c", strings.Repeat("x", 80): strings.Repeat("x", 48)} {
		if got := Slug(in); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
}

// A conversation in a worktree works on its own checkout: its edits and commands leave the main checkout byte for
// byte as it was, and Apply then makes the main checkout what the worktree holds.
func TestConversationInWorktree(t *testing.T) {
	ctx := context.Background()
	main := testtree.Repo(t, project)
	m := manager(t)
	m.Setup = ExecSetup{Options: workspace.Options{Settings: settings.NewStore(filepath.Join(t.TempDir(), "settings.json"))}}
	w, err := m.New(ctx, main, NewOptions{Name: "agent", Setup: []string{"touch", "setup-ran"}})
	if err != nil {
		t.Fatal(err)
	}
	if w.Setup == nil || w.Setup.Error != "" || w.Setup.ExitCode != 0 {
		t.Fatalf("setup = %+v", w.Setup)
	}
	if _, err := os.Stat(filepath.Join(w.Path, "setup-ran")); err != nil {
		t.Fatalf("the setup command did not run in the worktree: %v", err)
	}
	before := files(t, main)

	s, err := session.Open(w.Path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	reg := tools.Registry(tools.Deps{Session: s, Snapshots: &snapshot.Projects{CacheDir: m.CacheDir}})
	call := func(name string, args any) json.RawMessage {
		t.Helper()
		b, _ := json.Marshal(args)
		out, fail := reg.Call(ctx, name, b)
		if fail != nil {
			t.Fatalf("%s: %v", name, fail)
		}
		return out
	}
	call("read_file", map[string]any{"path": "a.txt"})
	call("patch_file", map[string]any{"path": "a.txt", "search": "alpha", "replace": "alpha (agent)"})
	call("exec_shell", map[string]any{"command": "cp", "args": []string{"b.txt", "made-by-command.txt"}})
	call("exec_shell", map[string]any{"command": "rm", "args": []string{"keep.txt"}})
	if got := files(t, main); !maps.Equal(got, before) {
		t.Fatalf("the worktree conversation changed the main checkout: %v", got)
	}

	if _, err := m.Apply(ctx, main, w.Name); err != nil {
		t.Fatal(err)
	}
	got, want := files(t, main), files(t, w.Path)
	if !maps.Equal(got, want) {
		t.Fatalf("after Apply the main checkout holds\n%v\nthe worktree\n%v", got, want)
	}
	if got["a.txt"] != "alpha (agent)\n" || got["made-by-command.txt"] != "bravo\n" || got["setup-ran"] != "" {
		t.Fatalf("Apply brought %v", got)
	}
	if _, ok := got["keep.txt"]; ok {
		t.Fatalf("the file the command removed is still in the main checkout")
	}
}

// A worktree is opened as a project of its own, with its project's settings: its setup command runs under the
// project's allowlist (a program the project does not allow is refused), and Discard forgets the settings.
func TestWorktreeHasItsProjectsSettings(t *testing.T) {
	ctx := context.Background()
	main := testtree.Repo(t, project)
	m := manager(t)
	m.Settings = settings.NewStore(filepath.Join(t.TempDir(), "settings.json"))
	m.Setup = ExecSetup{Options: workspace.Options{Settings: m.Settings}}
	if err := m.Settings.SetProject(main, settings.Project{Allowlist: []string{"ls"}, WorktreeSetup: []string{"touch", "installed"}}); err != nil {
		t.Fatal(err)
	}
	w, err := m.New(ctx, main, NewOptions{Name: "settings"})
	if err != nil {
		t.Fatal(err)
	}
	if w.Setup == nil || !strings.Contains(w.Setup.Error, tool.CodeNotAllowed) {
		t.Fatalf("setup = %+v, want it refused by the project's allowlist", w.Setup)
	}
	if _, err := os.Stat(filepath.Join(w.Path, "installed")); err == nil {
		t.Fatal("a program off the allowlist ran in the worktree")
	}
	got, err := m.Settings.Project(w.Path)
	if err != nil || !slices.Equal(got.Allowlist, []string{"ls"}) {
		t.Fatalf("the worktree's settings = %+v, %v", got, err)
	}
	if err := m.Discard(ctx, main, w.Name); err != nil {
		t.Fatal(err)
	}
	if got, _ := m.Settings.Project(w.Path); got.Allowlist != nil {
		t.Fatalf("Discard kept the worktree's settings: %+v", got)
	}
}

// The main checkout holds the whole change or none of it: a file that changes between Apply's check and its
// write stops the Apply, and the files already written are put back as they were.
func TestApplyPutsBackWhatItWroteWhenAWriteFails(t *testing.T) {
	ctx := context.Background()
	main := testtree.Repo(t, map[string]string{"a.txt": "a\n", "m.txt": "m\n", "z.txt": "z\n"})
	m := manager(t)
	w, err := m.New(ctx, main, NewOptions{Name: "half"})
	if err != nil {
		t.Fatal(err)
	}
	testtree.Write(t, w.Path, map[string]string{"a.txt": "a from the worktree\n", "b/new.txt": "new\n", "z.txt": "z from the worktree\n"})
	if err := os.Remove(filepath.Join(w.Path, "m.txt")); err != nil {
		t.Fatal(err)
	}
	r, err := openRepo(ctx, main)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := r.stateTree(ctx, w.Path)
	if err != nil {
		t.Fatal(err)
	}
	list, err := r.changes(ctx, w.Base, tree)
	if err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(main)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	steps, _, conflicts, err := r.check(ctx, root, list)
	if err != nil || len(conflicts) != 0 || len(steps) != 4 {
		t.Fatalf("check = %d steps, %v, %v", len(steps), conflicts, err)
	}
	// The user saves z.txt, the last file written, after the check.
	testtree.Write(t, main, map[string]string{"z.txt": "z from the user\n"})
	before := files(t, main)
	err = write(root, steps)
	if codeOf(err) != tool.CodeConflict || !strings.Contains(err.Error(), "z.txt") {
		t.Fatalf("write = %v, want a conflict naming z.txt", err)
	}
	if got := files(t, main); !maps.Equal(got, before) {
		t.Fatalf("a failed Apply left the main checkout as\n%v\nnot\n%v", got, before)
	}
	if _, err := os.Stat(filepath.Join(main, "b")); err == nil {
		t.Fatal("the folder made for a file put back is still there")
	}
}

// A new worktree's shadow repository starts from the index git wrote for it (its first snapshot hashes only what
// changed), and that snapshot still holds the worktree as it is: a change made before it, of the same size, is in
// it and comes back on a restore.
func TestFirstSnapshotOfAWorktreeIsSeeded(t *testing.T) {
	ctx := context.Background()
	main := testtree.Repo(t, project)
	m := manager(t)
	w, err := m.New(ctx, main, NewOptions{Name: "seeded"})
	if err != nil {
		t.Fatal(err)
	}
	seeded, _ := filepath.Glob(filepath.Join(m.CacheDir, "rooted", "snapshots", "*", "objects", "info", "alternates"))
	if len(seeded) != 1 {
		t.Fatalf("the worktree's shadow repository borrows from %v, want the repository's objects", seeded)
	}
	testtree.Write(t, w.Path, map[string]string{"a.txt": "ALPHA\n", "new.txt": "new\n"})
	root, err := os.OpenRoot(w.Path)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	repo, err := snapshot.Open(root, w.Path, m.CacheDir, snapshot.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Stop()
	snap, err := repo.Take(ctx, "first")
	if err != nil {
		t.Fatal(err)
	}
	want := files(t, w.Path)
	testtree.Write(t, w.Path, map[string]string{"a.txt": "later\n", "b.txt": "later\n"})
	if err := os.Remove(filepath.Join(w.Path, "new.txt")); err != nil {
		t.Fatal(err)
	}
	if _, err := repo.Restore(ctx, snap.ID, nil); err != nil {
		t.Fatal(err)
	}
	if got := files(t, w.Path); !maps.Equal(got, want) {
		t.Fatalf("restoring the first snapshot gave\n%v\nwant\n%v", got, want)
	}
}

// refuseAll is a command's proxy that answers no connection.
type refuseAll struct{}

func (refuseAll) Serve(ctx context.Context, ln net.Listener) error {
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	<-ctx.Done()
	return nil
}

func (refuseAll) Refused() []string { return nil }

func (refuseAll) Declined() []string { return nil }

func (refuseAll) Unallowable() []string { return nil }

// A worktree's setup command runs as the face's own commands run: in allow-list network mode, behind the proxy
// the face makes (the window's), given the project's hosts; without the face's options it would have no proxy and
// no network at all, so `npm ci` would fail where the same command in the conversation succeeds.
func TestSetupCommandGetsTheFacesProxy(t *testing.T) {
	ctx := context.Background()
	main := testtree.Repo(t, project)
	m := manager(t)
	m.Settings = settings.NewStore(filepath.Join(t.TempDir(), "settings.json"))
	if err := m.Settings.SetProject(main, settings.Project{Allowlist: []string{"env"}, Network: settings.NetworkAllowlist, NetworkHosts: []string{"registry.example.com"}, WorktreeSetup: []string{"env"}}); err != nil {
		t.Fatal(err)
	}
	var made atomic.Int32
	var hosts []string
	opt := workspace.Options{Settings: m.Settings, CommandProxy: func(lists tools.HostLists, _ tools.HostAsk) shell.Proxy {
		hosts, _ = lists()
		made.Add(1)
		return refuseAll{}
	}}

	// The control: the same command as a conversation in the main checkout runs it. Where no network namespace can
	// be made, allow-list mode is off for every command, and there is no proxy to hand on.
	control := opt
	control.NoSnapshots = true
	w0, err := workspace.Open(ctx, main, "control", control)
	if err != nil {
		t.Fatal(err)
	}
	out, fail := w0.Registry().Call(ctx, "exec_shell", []byte(`{"command": "env"}`))
	w0.Close()
	if fail != nil {
		t.Fatal(fail)
	}
	if made.Load() == 0 {
		t.Skipf("no proxied network here: %s", out)
	}
	made.Store(0)

	m.Setup = ExecSetup{Options: opt}
	w, err := m.New(ctx, main, NewOptions{Name: "proxied"})
	if err != nil {
		t.Fatal(err)
	}
	if w.Setup == nil || w.Setup.ExitCode != 0 || made.Load() != 1 || !slices.Contains(hosts, "registry.example.com") || !strings.Contains(w.Setup.Output, "HTTPS_PROXY=") {
		t.Fatalf("setup = %+v, %d proxies made for hosts %v; want it behind the face's proxy", w.Setup, made.Load(), hosts)
	}
}
