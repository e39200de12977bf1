package gitguard

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rooted-dev/rooted/backend/gitdir"
	"github.com/rooted-dev/rooted/backend/smallfile"
)

// skipInGitDir are the parts of a git folder that hold data, not programs or settings: not read by the guard.
var skipInGitDir = map[string]bool{"objects": true, "refs": true, "logs": true, "lfs": true, "rr-cache": true}

// scan walks the project once and records what git would read in every repository it finds.
func (g *Guard) scan(root *os.Root, abs string) *State {
	st := &State{
		guard:   g,
		entries: map[string]guarded{}, dirs: map[string]string{}, configs: map[string]guarded{},
		hooks: map[string]guarded{}, pointers: map[string]guarded{}, links: map[string]guarded{}, todos: map[string]guarded{}, odd: map[string]bool{}, hookDirs: map[string]bool{},
		includes: map[string]bool{}, includedBy: map[string]string{}, budget: scanBudget, outputs: map[string]uint64{},
	}
	if _, err := root.Lstat(".git"); err == nil {
		st.addEntry(root, abs, ".git")
	}
	// One walk of the work tree, each folder opened from its parent by the name readdir gave, links never followed.
	// Where the file system counts a folder's subfolders, a folder without any is not looked into further: only
	// its names are read, which is most of a node_modules.
	var found, bare []string
	// in says what the folder lies in: "dep" (a dependency folder), "tool" (a tool folder), "out" (a build output
	// folder), "skip" (an output folder's compiler state), "" in the work tree.
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
		if rel != "." && in != "dep" && IsDependencyFolder(path.Base(rel), names) {
			st.deps = append(st.deps, rel)
			in = "dep"
		}
		switch in {
		case "":
			st.folders = append(st.folders, rel)
			for _, name := range names {
				if g.isTool != nil && g.isTool(name) {
					st.tools = append(st.tools, path.Join(rel, name))
				}
			}
		case "out":
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
				case sin == "" && g.isTool != nil && g.isTool(name):
					sin = "tool"
				case sin == "" && OutputFolders[name]:
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
func (st *State) addEntry(root *os.Root, abs, p string) {
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
func (st *State) addGitDir(root *os.Root, abs, g, worktree string) {
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

// guardedLimit is the most of a hook or todo list the guard reads, configLimit of a configuration file or
// commondir (git has no use for more; a larger one is refused from its size, unread): a larger file is guarded as
// unreadable (a new one removed, a changed one put back), never half-read. scanBudget bounds the bytes one scan
// holds in all: past it, files are guarded as unreadable too, so that a command making many folders with large
// (sparse) configurations costs the guard no more than this, and what it made is removed, not trusted.
const (
	guardedLimit = 64 << 20
	configLimit  = 1 << 20
	scanBudget   = 256 << 20
)

func (st *State) read(root *os.Root, into map[string]guarded, p string) {
	fi, err := root.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return
	}
	limit := int64(guardedLimit)
	if path.Base(p) == "config" || path.Base(p) == "config.worktree" || path.Base(p) == "commondir" || st.includes[p] {
		limit = configLimit
	}
	if fi.Size() > limit || fi.Size() > st.budget {
		into[p] = guarded{mode: fi.Mode(), info: fi, unreadable: true}
		return
	}
	b, err := readRegular(root, p, limit)
	st.budget -= int64(len(b))
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
func (st *State) addConfigured(root *os.Root, abs string) {
	todo := slices.Collect(mapKeys(st.configs))
	slices.Sort(todo)
	for len(todo) > 0 && len(st.configs) < 1000 {
		p := todo[0]
		todo = todo[1:]
		keys, err := st.guard.lists.list(st.configs[p].data)
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
					st.includes[inc] = true
					if _, ok := st.includedBy[inc]; !ok {
						st.includedBy[inc] = st.gitDirOf(p)
					}
					if _, seen := st.configs[inc]; !seen {
						st.read(root, st.configs, inc)
						if _, ok := st.configs[inc]; ok {
							todo = append(todo, inc)
						}
					}
				}
			}
		}
		// core.hooksPath, relative to the work tree, of a repository with one: set in its own configuration or in a
		// file it includes (git takes the last one across includes; every one found is guarded, a superset).
		worktree, ok := st.dirs[st.gitDirOf(p)]
		if !ok || worktree == "" {
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

// gitDirOf is the git folder whose configuration p is, or includes (directly or through other includes: each
// include records the folder its includer belongs to); "" for none.
func (st *State) gitDirOf(p string) string {
	if b := path.Base(p); b == "config" || b == "config.worktree" {
		if _, ok := st.dirs[path.Dir(p)]; ok {
			return path.Dir(p)
		}
	}
	return st.includedBy[p]
}

// addHookDir records the files of a hooks folder in the work tree: git runs them as hooks.
func (st *State) addHookDir(root *os.Root, dir string) {
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
