package tools

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/rooted-dev/rooted/backend/gitconfig"
	"github.com/rooted-dev/rooted/backend/gitdir"
	"github.com/rooted-dev/rooted/backend/smallfile"
)

// A repository's git folder is a channel to run code later, outside any sandbox: git runs its hooks and the
// programs its configuration names (core.fsmonitor, aliases with !, filters, gpg.program, ...) when the user next
// runs git. Landlock cannot deny writes below a folder it lets commands write, so around every command Rooted
// records what git would read in every repository of the project (the project's own, every nested one, submodules
// in .git/modules, linked worktrees, bare repositories; found through .git folders, gitdir files and links alike)
// and, if the command changed it, puts it back and says so:
//
//   - a .git folder the command replaced with a gitdir file or a link, or moved, is moved back;
//   - a link the command put inside a git folder (config, hooks) is removed;
//   - a configuration file whose program-running settings changed is restored whole, as git's own parser reads it
//     (other changes, such as a new remote or an upstream branch, stay); a configuration file the command created
//     (git init, config.worktree) loses its program-running settings;
//   - a hook the command added or changed is removed or restored, in .git/hooks and in a core.hooksPath inside the
//     work tree (husky's .husky), where the user's next git commit would run it.
//
// The file tools refuse to write in .git at all.

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

// gitState is what git would read, in every repository of the project.
type gitState struct {
	entries  map[string]guarded // every .git in a work tree: folder, gitdir file or link
	dirs     map[string]string  // git folders (root-relative) -> their work tree ("" for a bare one)
	configs  map[string]guarded // configuration files, and files they include from inside the project
	hooks    map[string]guarded // files git runs as hooks
	pointers map[string]guarded // commondir files: where a linked worktree's git reads its configuration
	links    map[string]guarded // links inside git folders
	odd      map[string]bool    // named pipes, sockets and devices in git folders: git would block on or misread them
	todos    map[string]guarded // an operation's todo list git resumes on --continue (rebase -i, cherry-pick, revert)
	hookDirs map[string]bool    // core.hooksPath folders inside a work tree
	deps     []string           // dependency folders (node_modules, .venv, ...), outermost only
	tools    []string           // tool files by name (isToolName) outside dependency folders, outermost only
	outputs  map[string]uint64  // build outputs runners execute without rebuilding, fingerprinted (outputPrint)
	folders  []string           // work-tree folders outside dependency, tool and output folders ("." first)
}

// skipInGitDir are the parts of a git folder that hold data, not programs or settings: not read by the guard.
var skipInGitDir = map[string]bool{"objects": true, "refs": true, "logs": true, "lfs": true, "rr-cache": true}

// guardGit records, before a command, what git would read in every repository of the project.
func guardGit(root *os.Root, abs string) *gitState {
	return scanGit(root, abs)
}

// guardDeadline bounds the guard's look before and after a command. Every file it reads is opened without
// blocking, but a walk over a hung network mount or a stuck git could still take forever: past the deadline the
// guard gives up and fails closed, refusing the command (before) or saying what it did not check (after), rather
// than hanging every call that follows.
var guardDeadline = 2 * time.Minute

// errGuardTimeout says the guard did not finish within guardDeadline.
var errGuardTimeout = errors.New("the check of what git runs later did not finish in time")

// guardGitWithin is guardGit, or errGuardTimeout past the deadline.
func guardGitWithin(root *os.Root, abs string) (*gitState, error) {
	done := make(chan *gitState, 1)
	go func() { done <- guardGit(root, abs) }()
	select {
	case st := <-done:
		return st, nil
	case <-time.After(guardDeadline):
		return nil, errGuardTimeout
	}
}

// restoreWithin is restore, or past the deadline a report that says what was not checked.
func (before *gitState) restoreWithin(root *os.Root, abs string) ([]string, *gitState) {
	type result struct {
		said  []string
		after *gitState
	}
	done := make(chan result, 1)
	go func() {
		said, after := before.restoreScan(root, abs)
		done <- result{said, after}
	}()
	select {
	case r := <-done:
		return r.said, r.after
	case <-time.After(guardDeadline):
		return []string{fmt.Sprintf("could not check what git runs later within %s: run git in this project only after looking at its git folders (hooks, config, rebase-merge)", guardDeadline)}, nil
	}
}

func scanGit(root *os.Root, abs string) *gitState {
	st := &gitState{
		entries: map[string]guarded{}, dirs: map[string]string{}, configs: map[string]guarded{},
		hooks: map[string]guarded{}, pointers: map[string]guarded{}, links: map[string]guarded{}, todos: map[string]guarded{}, odd: map[string]bool{}, hookDirs: map[string]bool{},
		outputs: map[string]uint64{},
	}
	if _, err := root.Lstat(".git"); err == nil {
		st.addEntry(root, abs, ".git")
	}
	// One walk of the work tree, each folder opened from its parent by the name readdir gave, links never followed.
	// Where the file system counts a folder's subfolders, a folder without any is not looked into further: only
	// its names are read, which is most of a node_modules.
	var found, bare []string
	// in says what the folder lies in: "dep" (a dependency folder) or "tool" (a tool folder), "" in the work tree.
	var walk func(dir *os.Root, rel, in string)
	walk = func(dir *os.Root, rel, in string) {
		f, err := dir.Open(".")
		if err != nil {
			return
		}
		fi, err := f.Stat()
		if err != nil {
			f.Close()
			return
		}
		names, _ := f.Readdirnames(-1)
		f.Close()
		if slices.Contains(names, ".git") && rel != "." {
			found = append(found, path.Join(rel, ".git"))
		}
		left := subdirs(fi)
		if left > 0 && slices.Contains(names, ".git") {
			if fi, err := dir.Lstat(".git"); err == nil && fi.IsDir() {
				left--
			}
		}
		// A folder git takes for a repository, by git's rules: a bare one, or a work-tree folder with a valid HEAD
		// and objects and refs (through links, or a commondir). Checked before the count below: objects may be a
		// link, which the count leaves out.
		// The walk goes on below it: a repository may hide in a bare-looking folder's objects/, reached by a .git
		// file further down, and git reaches it whatever the guard thinks of the folder above.
		if rel != "." && slices.Contains(names, "HEAD") && gitdir.Is(filepath.Join(abs, filepath.FromSlash(rel))) {
			bare = append(bare, rel)
		}
		if rel != "." && in != "dep" && isDepFolder(path.Base(rel), names) {
			st.deps = append(st.deps, rel)
			in = "dep"
		}
		if in == "" {
			st.folders = append(st.folders, rel)
			for _, name := range names {
				if isToolName(name) {
					st.tools = append(st.tools, path.Join(rel, name))
				}
			}
		}
		if in == "out" {
			st.addOutputs(dir, rel, names)
		}
		if left == 0 {
			return // no folders in it: nothing to walk into
		}
		slices.Sort(names)
		for _, name := range names {
			if left == 0 {
				break
			}
			if name == ".git" {
				continue
			}
			fi, err := dir.Lstat(name)
			if err != nil || !fi.IsDir() {
				continue
			}
			left--
			if sub, err := dir.OpenRoot(name); err == nil {
				sin := in
				switch {
				case sin == "" && isToolName(name):
					sin = "tool"
				case sin == "" && outputFolders[name]:
					sin = "out"
				case sin == "out" && skipInOutputs[name]:
					sin = "skip"
				}
				walk(sub, path.Join(rel, name), sin)
				sub.Close()
			}
		}
	}
	walk(root, ".", "")
	for _, p := range found {
		st.addEntry(root, abs, p)
	}
	for _, g := range bare {
		st.addGitDir(root, abs, g, "")
	}
	st.addConfigured(root, abs)
	return st
}

// addEntry records a .git and the git folder it is or leads to.
func (st *gitState) addEntry(root *os.Root, abs, p string) {
	fi, err := root.Lstat(p)
	if err != nil {
		return
	}
	g := guarded{mode: fi.Mode(), info: fi}
	switch {
	case fi.IsDir():
		g.dest = p
	case fi.Mode()&fs.ModeSymlink != 0:
		target, err := root.Readlink(p)
		if err != nil {
			return
		}
		g.data, g.dest = []byte(target), inside(abs, path.Dir(p), target)
	case fi.Mode().IsRegular():
		b, err := readRegular(root, p, 64<<10)
		if err != nil {
			g.data = []byte{} // unreadable (a pipe, too large): guarded as a file leading nowhere Rooted knows
			break
		}
		g.data = b
		// As git reads it (no trimming beyond newlines): "gitdir: ../x " is the folder "x " to git.
		if target, ok := gitdir.ParseGitFile(b); ok {
			g.dest = inside(abs, path.Dir(p), target)
		}
	default:
		return
	}
	st.entries[p] = g
	if g.dest != "" {
		st.addGitDir(root, abs, g.dest, path.Dir(p))
	}
}

// inside resolves target (absolute, or relative to the root-relative folder dir) to a root-relative path, or ""
// when it leads out of the project. What it names is then opened through the root, which refuses any escape.
func inside(abs, dir, target string) string {
	var rel string
	if filepath.IsAbs(target) {
		r, err := filepath.Rel(abs, target)
		if err != nil {
			return ""
		}
		rel = filepath.ToSlash(r)
	} else {
		rel = path.Join(dir, filepath.ToSlash(target))
	}
	if !filepath.IsLocal(rel) {
		return ""
	}
	return path.Clean(rel)
}

// addGitDir records the settings, hooks and links of a git folder (with its submodules' and worktrees' folders).
func (st *gitState) addGitDir(root *os.Root, abs, g, worktree string) {
	if _, seen := st.dirs[g]; seen {
		if worktree != "" {
			st.dirs[g] = worktree
		}
		return
	}
	st.dirs[g] = worktree
	fsys := root.FS()
	var walk func(dir string)
	walk = func(dir string) {
		entries, err := fs.ReadDir(fsys, dir)
		if err != nil {
			return
		}
		for _, e := range entries {
			p := path.Join(dir, e.Name())
			switch {
			case e.Type()&fs.ModeSymlink != 0:
				if target, err := root.Readlink(p); err == nil {
					st.links[p] = guarded{mode: fs.ModeSymlink, data: []byte(target)}
				}
			case e.IsDir():
				if !skipInGitDir[e.Name()] {
					walk(p)
				}
			case !e.Type().IsRegular():
				st.odd[p] = true
			case path.Base(dir) == "hooks" && !strings.HasSuffix(e.Name(), ".sample"):
				st.read(root, st.hooks, p)
			case e.Name() == "config" || e.Name() == "config.worktree":
				st.read(root, st.configs, p)
			case e.Name() == "commondir":
				st.read(root, st.pointers, p)
			case isTodo(p):
				st.read(root, st.todos, p)
			}
		}
	}
	walk(g)
	// The common folder git reads the settings and hooks from, when a commondir leads to another inside the
	// project: git follows it whether or not git made it, so it is guarded as well.
	if common, _ := gitdir.Common(filepath.Join(abs, filepath.FromSlash(g))); common != "" {
		if c := inside(abs, g, common); c != "" && c != g {
			st.addGitDir(root, abs, c, "")
		}
	}
}

// guardedLimit is the most of a configuration file or hook the guard reads: a larger one is guarded as unreadable
// (a new one removed, a changed one put back), never half-read.
const guardedLimit = 64 << 20

func (st *gitState) read(root *os.Root, into map[string]guarded, p string) {
	fi, err := root.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return
	}
	b, err := readRegular(root, p, guardedLimit)
	into[p] = guarded{mode: fi.Mode(), data: b, info: fi, unreadable: err != nil}
}

// readRegular reads the regular file p in root, a final link not followed, opened without blocking (a named pipe
// the command left where a file was is refused at once, not waited on), and refused over limit bytes.
func readRegular(root *os.Root, p string, limit int64) ([]byte, error) {
	f, err := root.OpenFile(p, os.O_RDONLY|openNoFollow, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w", p, smallfile.ErrNotRegular)
	}
	if fi.Size() > limit {
		return nil, fmt.Errorf("%s: %w", p, smallfile.ErrTooLarge)
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err == nil && int64(len(b)) > limit {
		err = fmt.Errorf("%s: %w", p, smallfile.ErrTooLarge)
	}
	return b, err
}

// addConfigured adds what the configuration files name: files they include from inside the project (guarded as
// configuration), and the hooks in a core.hooksPath inside a work tree.
func (st *gitState) addConfigured(root *os.Root, abs string) {
	todo := slices.Collect(mapKeys(st.configs))
	slices.Sort(todo)
	for len(todo) > 0 && len(st.configs) < 1000 {
		p := todo[0]
		todo = todo[1:]
		keys, err := listConfig(st.configs[p].data)
		if err != nil {
			continue
		}
		for k, vs := range keys {
			if k != "include.path" && !(strings.HasPrefix(k, "includeif.") && strings.HasSuffix(k, ".path")) {
				continue
			}
			for _, v := range vs {
				if strings.HasPrefix(v, "~") {
					continue // in the home folder: not the project's to guard
				}
				if inc := inside(abs, path.Dir(p), v); inc != "" {
					if _, seen := st.configs[inc]; !seen {
						st.read(root, st.configs, inc)
						if _, ok := st.configs[inc]; ok {
							todo = append(todo, inc)
						}
					}
				}
			}
		}
		// core.hooksPath, relative to the work tree, of a repository with one.
		worktree, ok := st.dirs[path.Dir(p)]
		if !ok || worktree == "" || path.Base(p) != "config" && path.Base(p) != "config.worktree" {
			continue
		}
		if v := keys["core.hookspath"]; len(v) > 0 && v[len(v)-1] != "" && !strings.HasPrefix(v[len(v)-1], "~") {
			if dir := inside(abs, worktree, v[len(v)-1]); dir != "" {
				st.addHookDir(root, dir)
				if path.Base(dir) == "_" { // husky 9: the hooks in .husky/_ run the user's in .husky
					st.addHookDir(root, path.Dir(dir))
				}
			}
		}
	}
}

// addHookDir records the files of a hooks folder in the work tree: git runs them as hooks.
func (st *gitState) addHookDir(root *os.Root, dir string) {
	st.hookDirs[dir] = true
	entries, err := fs.ReadDir(root.FS(), dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		p := path.Join(dir, e.Name())
		switch {
		case e.Type()&fs.ModeSymlink != 0:
			if target, err := root.Readlink(p); err == nil {
				st.hooks[p] = guarded{mode: fs.ModeSymlink, data: []byte(target)}
			}
		case e.Type().IsRegular():
			st.read(root, st.hooks, p)
		}
	}
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// restore undoes what a command changed of what git would read, and returns what it undid, and what it could not.
func (before *gitState) restore(root *os.Root, abs string) []string {
	said, _ := before.restoreScan(root, abs)
	return said
}

// restoreScan is restore, and the project's state as it left it (nil where it had no time to look).
func (before *gitState) restoreScan(root *os.Root, abs string) ([]string, *gitState) {
	u := putBack{root: root}
	after := scanGit(root, abs)
	rescan := false

	// 1. Each .git as it was: a folder moved back, a gitdir file or link put back.
	for p, b := range before.entries {
		a, ok := after.entries[p]
		if ok && a.mode.Type() == b.mode.Type() && (b.mode.IsDir() && os.SameFile(a.info, b.info) || !b.mode.IsDir() && bytes.Equal(a.data, b.data)) {
			continue
		}
		if b.mode.IsDir() {
			if ok && a.mode.IsDir() {
				continue // another folder: a new repository, checked below as one
			}
			src := ""
			for g := range after.dirs {
				if fi, err := root.Lstat(g); err == nil && os.SameFile(fi, b.info) {
					src = g
				}
			}
			if src == "" && ok && a.dest != "" {
				if fi, err := root.Lstat(a.dest); err == nil && fi.IsDir() {
					src = a.dest
				}
			}
			switch {
			case src != "":
				if ok && !u.remove(p, "removed "+p+", which the command put in place of the repository's folder") {
					continue
				}
				rescan = u.rename(src, p, fmt.Sprintf("put back %s, which the command moved to %s", p, src)) || rescan
			case ok:
				rescan = u.remove(p, "removed "+p+", which the command put in place of the repository's folder") || rescan
			}
			continue // deleted: the snapshots recover history
		}
		// A gitdir file or link before: put it back as it was.
		if ok && a.mode.IsDir() {
			continue
		}
		if b.mode&fs.ModeSymlink != 0 {
			rescan = u.link(p, string(b.data), "restored "+p+", which the command changed") || rescan
		} else {
			rescan = u.file(p, b.data, b.mode.Perm(), "restored "+p+", which the command changed") || rescan
		}
	}
	for p, a := range after.entries {
		if _, had := before.entries[p]; had || a.mode.IsDir() {
			continue
		}
		switch {
		case a.dest == "":
			rescan = u.remove(p, "removed "+p+": it leads git to a repository outside the project") || rescan
		case !gitdir.Is(filepath.Join(abs, filepath.FromSlash(a.dest))):
			// Where the guard cannot tell the repository git would use, it does not guess: the pointer goes.
			rescan = u.remove(p, "removed "+p+": it leads git to no repository Rooted recognises") || rescan
		}
	}
	// 2. Links in git folders, and commondir files that lead git elsewhere; a named pipe or other special file
	// left in a git folder (HEAD, packed-refs, config), which the user's git would block on.
	for p := range after.odd {
		if !before.odd[p] {
			rescan = u.remove(p, "removed "+p+", a named pipe or other special file the command left in a git folder") || rescan
		}
	}
	for p, a := range after.links {
		if b, had := before.links[p]; had && bytes.Equal(b.data, a.data) {
			continue
		}
		rescan = u.remove(p, "removed "+p+", a link the command put in a git folder") || rescan
	}
	for p, a := range after.pointers {
		b, had := before.pointers[p]
		if had && bytes.Equal(b.data, a.data) {
			continue
		}
		if _, made := gitdir.Common(filepath.Join(abs, filepath.FromSlash(path.Dir(p)))); !had && made {
			continue // a new linked worktree of a repository in the project, its common folder pointing back
		}
		said := "removed " + p + ", which pointed git at another repository"
		if had {
			rescan = u.file(p, b.data, b.mode.Perm(), "restored "+p+", which the command pointed elsewhere") || rescan
		} else {
			rescan = u.remove(p, said) || rescan
		}
	}
	if rescan {
		after = scanGit(root, abs)
	}

	// 3. Configuration: git's own reading of each file before and after.
	restored := false
	for p, b := range before.configs {
		a, ok := after.configs[p]
		if ok && bytes.Equal(a.data, b.data) {
			continue
		}
		why := "the command removed it"
		if ok && a.unreadable {
			why = "Rooted could not read what the command wrote"
		} else if ok {
			keys, err := execKeysChanged(b.data, a.data)
			switch {
			case err != nil:
				why = "git could not read what the command wrote"
			case len(keys) == 0:
				continue
			default:
				why = "the command set " + strings.Join(keys, ", ")
			}
		}
		restored = u.file(p, b.data, b.mode.Perm(), fmt.Sprintf("restored %s: %s", p, why)) || restored
	}
	for p, a := range after.configs {
		if _, had := before.configs[p]; had {
			continue
		}
		if a.unreadable {
			restored = u.remove(p, fmt.Sprintf("removed %s: Rooted could not read it", p)) || restored
			continue
		}
		keys, clean, err := stripNewRepoKeys(a.data)
		switch {
		case err != nil:
			restored = u.remove(p, fmt.Sprintf("removed %s: git could not read it", p)) || restored
		case len(keys) > 0:
			restored = u.file(p, clean, a.mode.Perm(), fmt.Sprintf("removed %s from %s, which the command created", strings.Join(keys, ", "), p)) || restored
		}
	}
	if restored {
		after = scanGit(root, abs)
	}

	// 4. Todo lists: an exec line a command left in a stopped rebase or cherry-pick runs on the user's --continue.
	for p, a := range after.todos {
		if b, had := before.todos[p]; had && bytes.Equal(b.data, a.data) && !a.unreadable {
			continue
		}
		if a.unreadable {
			u.remove(p, fmt.Sprintf("removed %s: Rooted could not read it", p))
			continue
		}
		if clean, execs := withoutExecLines(a.data); execs > 0 {
			u.file(p, clean, a.mode.Perm(), fmt.Sprintf("removed %d exec line(s) from %s (git would run them on --continue)", execs, p))
		}
	}

	// 5. Hooks: removed when new, restored when changed.
	for p, a := range after.hooks {
		b, had := before.hooks[p]
		switch {
		case had && b.mode == a.mode && bytes.Equal(b.data, a.data):
		case !had:
			u.remove(p, fmt.Sprintf("removed %s, a hook the command added (git would run it)", p))
		case b.mode&fs.ModeSymlink != 0:
			u.link(p, string(b.data), fmt.Sprintf("restored %s, a hook the command changed (git would run it)", p))
		default:
			u.file(p, b.data, b.mode.Perm(), fmt.Sprintf("restored %s, a hook the command changed (git would run it)", p))
		}
	}
	for p, b := range before.hooks { // a hook the command removed along with its folder (replaced by a link)
		if _, ok := after.hooks[p]; !ok && b.mode.IsRegular() {
			if _, err := root.Lstat(path.Dir(p)); err != nil {
				u.file(p, b.data, b.mode.Perm(), fmt.Sprintf("restored %s, a hook the command removed", p))
			}
		}
	}
	return u.report(), after
}

// isTodo reports whether p (root-relative, in a git folder) is a todo list git carries on with later: an
// interactive rebase's rebase-merge/git-rebase-todo, or a cherry-pick's or revert's sequencer/todo. Both are read
// by the sequencer, whose exec (x) command runs a shell command.
func isTodo(p string) bool {
	dir, name := path.Split(p)
	dir = path.Base(path.Clean(dir))
	return dir == "rebase-merge" && name == "git-rebase-todo" || dir == "sequencer" && name == "todo"
}

// withoutExecLines returns a todo list without its exec lines, and how many there were. A line is an exec line
// as the sequencer parses it (blanks, then "exec" or "x" and a blank or the line's end), in any case: a line
// Rooted takes for one that git would not is only dropped from a list the command wrote.
func withoutExecLines(b []byte) ([]byte, int) {
	var out []byte
	n := 0
	for line := range bytes.Lines(b) {
		word := bytes.TrimLeft(line, " \t")
		if end := bytes.IndexAny(word, " \t\r\n"); end >= 0 {
			word = word[:end]
		}
		if w := strings.ToLower(string(word)); w == "exec" || w == "x" {
			n++
			continue
		}
		out = append(out, line...)
	}
	return out, n
}

// configLists remembers git's reading of configuration contents (by their hash): a scan before and after every
// command asks again only for what changed.
var configLists = struct {
	sync.Mutex
	m map[[32]byte]listed
}{m: map[[32]byte]listed{}}

type listed struct {
	keys map[string][]string
	err  error
}

func listConfig(b []byte) (map[string][]string, error) {
	sum := sha256.Sum256(b)
	configLists.Lock()
	l, ok := configLists.m[sum]
	configLists.Unlock()
	if ok {
		return l.keys, l.err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	keys, err := gitconfig.List(ctx, b)
	if err != nil && !errors.Is(err, gitconfig.ErrUnreadable) {
		return nil, err // git did not run: not remembered
	}
	configLists.Lock()
	if len(configLists.m) > 512 {
		clear(configLists.m)
	}
	configLists.m[sum] = listed{keys, err}
	configLists.Unlock()
	return keys, err
}

// execKeys are the program-running settings among keys.
func execKeys(keys map[string][]string) map[string][]string {
	out := map[string][]string{}
	for k, v := range keys {
		if gitconfig.RunsPrograms(k) {
			out[k] = v
		}
	}
	return out
}

// execKeysChanged lists the program-running settings whose values differ between two configuration files, as git
// reads them; an error when git cannot read after.
func execKeysChanged(before, after []byte) ([]string, error) {
	b, err := listConfig(after)
	if err != nil {
		return nil, err
	}
	a, _ := listConfig(before) // unreadable before: every setting now counts
	ea, eb := execKeys(a), execKeys(b)
	var out []string
	for k, v := range eb {
		if !slices.Equal(ea[k], v) {
			out = append(out, k)
		}
	}
	for k := range ea {
		if _, ok := eb[k]; !ok {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out, nil
}

// stripNewRepoKeys returns the content of a configuration file the command created (git init, clone,
// config.worktree) holding only the keys a new repository may keep (gitconfig.NewRepositoryMayKeep, an
// allow-list), removed by git itself, and the keys it removed.
func stripNewRepoKeys(b []byte) (keys []string, clean []byte, err error) {
	listedKeys, err := listConfig(b)
	if err != nil {
		return nil, nil, err
	}
	for k := range listedKeys {
		if !gitconfig.NewRepositoryMayKeep(k) {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return nil, b, nil
	}
	slices.Sort(keys)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if clean, err = gitconfig.Without(ctx, b, keys); err != nil {
		return nil, nil, err
	}
	left, err := listConfig(clean)
	if err != nil {
		return nil, nil, err
	}
	for k := range left {
		if !gitconfig.NewRepositoryMayKeep(k) {
			return nil, nil, fmt.Errorf("%w: %s stays", gitconfig.ErrUnreadable, k)
		}
	}
	return keys, clean, nil
}
