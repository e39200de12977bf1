package gitguard

import (
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rooted-dev/rooted/backend/gitconfig"
	"github.com/rooted-dev/rooted/backend/gitdir"
)

// A submodule the project declares but has not checked out (cloned without --recurse-submodules) is a .git that
// does not exist yet where a gitlink leads, which the guard watches: a repository a command makes there would be
// entered by the user's git status. git submodule update makes exactly one there, and that is the user's ordinary
// workflow, so one shape is let through: the .git file git writes, leading to <git folder>/modules/<name> (the
// name .gitmodules declared for that path before the command), and in that folder only what git clone writes: a
// configuration of the keys a new repository may keep and a core.worktree back to the submodule's path, hooks
// that are samples, no links, no special files, no commondir. Anything else there is still a trip.
//
// A repository a command makes where no gitlink leads (git init, git clone into a folder of the project) is judged
// by the same shape from its making (NewRepoFault), and disarmed as soon as it holds more (DisarmRepo): a shell
// prompt or an editor opened in that folder runs git there, outside the sandbox, while the command still runs.

// PendingSubmodules maps each .git a declared submodule will have (root-relative) that does not exist yet to the
// git folder git clones it into: a gitlink in a repository's index (Indexes) leads to the path, .gitmodules in
// that repository's work tree names it, and the repository has its own git folder (no commondir: a linked
// worktree's modules live elsewhere). All of it as the project was before the command: a command cannot declare
// what it is allowed to make.
func (st *State) PendingSubmodules(root *os.Root) map[string]string {
	out := map[string]string{}
	for index, wt := range st.Indexes() {
		gitDir := path.Dir(index)
		if _, err := root.Lstat(path.Join(gitDir, "commondir")); err == nil {
			continue
		}
		names := st.submoduleNames(root, wt)
		if len(names) == 0 {
			continue
		}
		for _, l := range Gitlinks(root, index, wt) {
			entry := path.Join(l, ".git")
			if _, err := root.Lstat(entry); err == nil {
				continue
			}
			rel := strings.TrimPrefix(strings.TrimPrefix(l, wt), "/")
			if wt == "." {
				rel = l
			}
			if name, ok := names[rel]; ok {
				out[entry] = path.Join(gitDir, "modules", name)
			}
		}
	}
	return out
}

// submoduleNames reads the .gitmodules of the work tree wt as git reads it: submodule.<name>.path, path -> name.
// A name git would refuse (check_submodule_name: empty, absolute, a ".." part) is left out.
func (st *State) submoduleNames(root *os.Root, wt string) map[string]string {
	b, err := readRegular(root, path.Join(wt, ".gitmodules"), configLimit)
	if err != nil {
		return nil
	}
	keys, err := st.guard.lists.list(b)
	if err != nil {
		return nil
	}
	out := map[string]string{}
	for k, v := range keys {
		rest, ok := strings.CutPrefix(k, "submodule.")
		if !ok || len(v) == 0 {
			continue
		}
		name, ok := strings.CutSuffix(rest, ".path")
		if !ok || !validSubmoduleName(name) {
			continue
		}
		out[path.Clean(v[len(v)-1])] = name
	}
	return out
}

func validSubmoduleName(name string) bool {
	if name == "" || !filepath.IsLocal(name) || strings.Contains(name, `\`) {
		return false
	}
	return !slices.Contains(strings.Split(name, "/"), "..") && path.Clean(name) == name
}

// SubmoduleFault says what, at the .git entry of a pending submodule and in the git folder dir it must lead to,
// is not what git submodule update writes; "" when it is that shape. The .git not being there (yet) is no fault.
func (st *State) SubmoduleFault(root *os.Root, abs, entry, dir string) string {
	return st.guard.submoduleFault(root, abs, entry, dir)
}

func (g *Guard) submoduleFault(root *os.Root, abs, entry, dir string) string {
	return g.repoFault(root, abs, entry, dir)
}

// repoFault judges a repository a command is making at the .git entry (a folder, or a .git file leading to
// want, or anywhere inside the project when want is ""), as the command left it so far: "" when it holds only
// what git init, clone or submodule update write, else what is not. A .git or git folder not there yet is no
// fault: git outside finds no repository in it.
func (g *Guard) repoFault(root *os.Root, abs, entry, want string) string {
	dir, bad := plainFault(root, abs, entry, want)
	if bad != "" || dir == "" {
		return bad
	}
	st := g.newRepoScan(root, abs, entry, dir)
	for p, l := range st.links {
		if !symlinkProbe(dir, p, l) {
			return p + " is a link, which git does not write in a new repository"
		}
	}
	for p := range st.pointers {
		// A linked worktree's commondir (git worktree add) leads to its repository, which points back; any other
		// would have git read settings and hooks from elsewhere.
		if _, made := gitdir.Common(filepath.Join(abs, filepath.FromSlash(dir))); !made {
			return p + " points git at another repository"
		}
	}
	for _, m := range []map[string]guarded{st.hooks, st.todos} {
		for p := range m {
			return p + " is not what git writes in a new repository"
		}
	}
	for p := range st.odd {
		return p + " is a special file"
	}
	wt := path.Dir(entry)
	for p, c := range st.configs {
		if b := path.Base(p); path.Dir(p) != dir || b != "config" && b != "config.worktree" {
			return p + " is not what git writes in a new repository"
		}
		if c.unreadable {
			return p + " could not be read"
		}
		if bad := g.lists.newRepoFault(c.data, func(k string, v []string) bool {
			// git submodule and git worktree write core.worktree back to the work tree; anywhere else it moves it.
			return k == "core.worktree" && len(v) > 0 && inside(abs, dir, v[len(v)-1]) == wt
		}); bad != "" {
			return p + " sets " + bad
		}
	}
	return ""
}

// PlainlyRuns names the configuration file of the git folder dir (root-relative) that sets a key running a program
// (gitconfig.RunsPrograms) as a plain reading shows it (gitconfig.Parse), and the key; "" when none does. It is
// asked before git is (judging a new repository lists its keys through git, which takes some milliseconds under
// load, each of them one more git status run outside on a plant): it only ever finds a fault sooner, never clears
// one, so that git's own reading still decides whatever it misses. core.worktree is left to that reading: git
// submodule and git worktree write one back to the work tree.
func PlainlyRuns(root *os.Root, dir string) (file, key string) {
	for _, name := range []string{"config", "config.worktree"} {
		p := path.Join(dir, name)
		if fi, err := root.Lstat(p); err != nil || !fi.Mode().IsRegular() {
			continue // a link or special file there is the scan's to name
		}
		b, err := readRegular(root, p, configLimit)
		if err != nil {
			continue
		}
		for k := range gitconfig.Parse(b) {
			if k != "core.worktree" && gitconfig.RunsPrograms(k) {
				return p, k
			}
		}
	}
	return "", ""
}

// QuickSubmoduleFault is the part of SubmoduleFault that asks no program: the .git entry's shape, where it leads,
// and a configuration that plainly sets a program (PlainlyRuns). Reading a few small files, it can be asked at
// each change while the command runs; "" from it leaves the rest (hooks, links, git's own reading of the
// configuration) to SubmoduleFault.
func QuickSubmoduleFault(root *os.Root, abs, entry, dir string) string {
	_, bad := plainFault(root, abs, entry, dir)
	return bad
}

// plainFault judges what of the repository a command is making at entry can be judged without asking git: the .git
// entry (a folder, or a .git file leading to want, or anywhere inside the project when want is ""), the git
// folder it leads to, and PlainlyRuns. dir is that git folder, "" when there is nothing (yet) to judge further.
func plainFault(root *os.Root, abs, entry, want string) (dir, fault string) {
	fi, err := root.Lstat(entry)
	if err != nil {
		return "", ""
	}
	dir = entry
	switch {
	case fi.IsDir() && want == "":
	case fi.Mode().IsRegular():
		b, err := readRegular(root, entry, 64<<10)
		if err != nil {
			return "", entry + " could not be read"
		}
		if len(b) == 0 {
			return "", "" // being written (git truncates, then writes it whole); git outside takes it for no repository
		}
		target, ok := gitdir.ParseGitFile(b)
		if dir = inside(abs, path.Dir(entry), target); !ok || dir == "" {
			return "", entry + " leads git out of the project, or nowhere"
		}
		if want != "" && dir != want {
			return "", fmt.Sprintf("%s leads elsewhere than %s, where git keeps the declared submodule", entry, want)
		}
	default:
		return "", entry + " is not a .git folder or the .git file git writes"
	}
	// git clone writes the .git file before it makes the folder: a .git leading to nothing yet makes git outside
	// run nothing, and the folder's making is seen and judged in turn.
	if fi, err := root.Lstat(dir); err != nil {
		return "", ""
	} else if !fi.IsDir() {
		return "", dir + " is not a folder"
	}
	if file, key := PlainlyRuns(root, dir); file != "" {
		return "", file + " sets " + key
	}
	return dir, ""
}

// newRepoScan records what git would read in the git folder dir of the new repository at entry, and nothing
// outside it: a commondir's common folder (the project's own, protected on its own) is not the new one's.
func (g *Guard) newRepoScan(root *os.Root, abs, entry, dir string) *State {
	st := g.emptyState()
	st.addGitDir(root, abs, dir, path.Dir(entry))
	in := func(p string) bool { return strings.HasPrefix(p, dir+"/") }
	for _, m := range []map[string]guarded{st.configs, st.hooks, st.pointers, st.links, st.todos} {
		maps.DeleteFunc(m, func(p string, _ guarded) bool { return !in(p) })
	}
	maps.DeleteFunc(st.odd, func(p string, _ bool) bool { return !in(p) })
	maps.DeleteFunc(st.dirs, func(p string, _ string) bool { return p != dir })
	return st
}

// emptyState is a State holding nothing: a project without git, as far as the guard is concerned.
func (g *Guard) emptyState() *State {
	return &State{
		guard: g, entries: map[string]guarded{}, dirs: map[string]string{}, configs: map[string]guarded{},
		hooks: map[string]guarded{}, pointers: map[string]guarded{}, links: map[string]guarded{}, todos: map[string]guarded{},
		odd: map[string]bool{}, hookDirs: map[string]bool{}, includes: map[string]bool{}, includedBy: map[string]string{},
		budget: scanBudget, outputs: map[string]uint64{},
	}
}

// NewRepoFault judges the repository a command is making at the .git entry, wherever it leads in the project
// (repoFault): "" while it holds only what git init or clone write.
func (st *State) NewRepoFault(root *os.Root, abs, entry string) string {
	return st.guard.repoFault(root, abs, entry, "")
}

// DisarmRepo leaves the repository a command is making at entry only what a new repository may hold, as the
// comparison after a command would (configuration keys on the allow-list, no hooks, links, special files or
// foreign commondir), through u: done while the command runs, so that git outside never runs what it planted.
func (st *State) DisarmRepo(u *PutBack, root *os.Root, abs, entry string) {
	dir := entry
	if fi, err := root.Lstat(entry); err == nil && !fi.IsDir() {
		b, err := readRegular(root, entry, 64<<10)
		target, ok := gitdir.ParseGitFile(b)
		if err != nil || !ok || inside(abs, path.Dir(entry), target) == "" {
			u.Remove(entry, "removed "+entry+", which the command created")
			return
		}
		dir = inside(abs, path.Dir(entry), target)
	}
	empty := st.guard.emptyState()
	after := st.guard.newRepoScan(root, abs, entry, dir)
	// A configuration file holding more than it may is taken out of git's way first, at once (git's reading of
	// it is remembered from the judging): writing it back stripped asks git again, which takes a while, and git
	// outside must not read it meanwhile. A repository without its configuration file runs nothing.
	for p, c := range after.configs {
		if c.unreadable || st.guard.lists.newRepoFault(c.data, func(k string, v []string) bool {
			return k == "core.worktree" && after.keptWorktree(abs, p, v)
		}) != "" {
			root.Remove(p)
		}
	}
	r := &restoring{before: empty, after: after, root: root, abs: abs, u: u}
	r.steps(false, r.specialFiles, r.links, r.pointers, r.newConfigs, r.hooks)
}

// symlinkProbe reports whether the link p in the git folder dir is the one git init makes for a moment to learn
// whether links work (create_default_files: "tXXXXXX" -> "testing"), which it removes at once.
func symlinkProbe(dir, p string, l guarded) bool {
	name, ok := strings.CutPrefix(p, dir+"/t")
	return ok && len(name) == 6 && !strings.ContainsAny(name, "/.") && string(l.data) == "testing"
}

// newRepoFault names a key in the configuration b that a new repository may not keep (gitconfig.NewRepositoryMayKeep,
// or also), or says git cannot read it; "" when every key may stay.
func (c *configCache) newRepoFault(b []byte, also func(key string, values []string) bool) string {
	keys, err := c.list(b)
	if err != nil {
		return "what git cannot read"
	}
	var bad []string
	for k, v := range keys {
		if !gitconfig.NewRepositoryMayKeep(k) && !also(k, v) {
			bad = append(bad, k)
		}
	}
	slices.Sort(bad)
	return strings.Join(bad, ", ")
}

// keptWorktree reports whether the configuration file p, created by a command, may keep its core.worktree: the
// file is a git folder's whose work tree the scan found through a .git file, and the value leads back there (what
// git submodule and git worktree write).
func (st *State) keptWorktree(abs, p string, values []string) bool {
	wt, ok := st.dirs[path.Dir(p)]
	return ok && wt != "" && path.Base(p) == "config" && len(values) > 0 && inside(abs, path.Dir(p), values[len(values)-1]) == wt
}
