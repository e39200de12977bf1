package tools

import (
	"os"
	"path"
	"slices"
	"strings"

	"github.com/rooted-dev/rooted/backend/gitguard"
	"github.com/rooted-dev/rooted/backend/smallfile"
)

// Protected by name, not by list. What exists before a command is bound read-only (protect); what a command
// creates is judged by the same rule after it, from the guard's own walk of the work tree (one walk serves both):
//
//   - a tool file (isToolName) the command created anywhere, ignored by git or not, is removed: a package's
//     .npmrc, a .vscode or .claude folder in a subfolder, a new *.code-workspace;
//   - a dependency folder (gitguard.IsDependencyFolder) created by a command that is not an install is removed: a web/node_modules
//     that would shadow the hoisted one, a venv by any name, a __pycache__;
//   - either way the result says what was removed, and a new dependency folder is among dependencies_changed.

// createdRule is what the watcher ends a command for when it appears during the run: a tool file the command
// created anywhere, or a dependency folder a command that is no install created. __pycache__ is left to the check
// after the run (a test runner older than PYTHONPYCACHEPREFIX may still write one).
func (pr protection) createdRule(before *gitguard.State) func(rel string) bool {
	existed := map[string]bool{}
	for _, p := range slices.Concat(before.Tools(), before.Deps(), pr.paths) {
		existed[p] = true
	}
	return func(rel string) bool {
		if existed[rel] || gitguard.InsideAny(before.Deps(), rel) {
			return false
		}
		name := path.Base(rel)
		return isToolName(name) || !pr.depsWritable && gitguard.DependencyFolders[name] && name != "__pycache__"
	}
}

// leftBehind removes what the command created that the name rule protects, comparing the guard's walks before
// and after it. It returns what it said, and the dependency folders the command created (removed unless
// depsWritable).
func leftBehind(root *os.Root, before, after *gitguard.State, depsWritable bool) (said, newDeps []string) {
	u := gitguard.NewPutBack(root)
	u.SetAsideIn(setAsideDir(root.Name()))
	for _, d := range after.Deps() {
		if gitguard.InsideAny(before.Deps(), d) || gitguard.InsideAny(before.Tools(), d) {
			continue
		}
		newDeps = append(newDeps, d)
		if !depsWritable {
			u.Remove(d, "removed "+d+", a dependency folder the command created (hooks, test runners and imports would run its code; only the package manager's install commands may make one)")
		}
	}
	for _, t := range after.Tools() {
		if gitguard.InsideAny(before.Tools(), t) {
			continue
		}
		if _, err := root.Lstat(t); err != nil {
			continue // inside a dependency folder removed above
		}
		// The user may have made it while the command ran (an editor opening the folder makes .vscode): kept.
		u.RemoveKept(t, "removed "+t+", which the command created: tools outside the sandbox run programs from it")
	}
	return u.Report(), newDeps
}

// envrcLoads lists, root-relative, the files the project's .envrc files load into the user's shell when direnv
// reloads them (dotenv, dotenv_if_exists, source_env, source_env_if_exists, watch_file): direnv's approval covers
// the .envrc's bytes only, so what they load is as good as the .envrc itself. A name built from a variable stands
// for every .env file in that folder.
func envrcLoads(root *os.Root, tools []string) []string {
	var out []string
	for _, t := range tools {
		if path.Base(t) != ".envrc" {
			continue
		}
		b, err := smallfile.ReadInMax(root, t, 1<<20)
		if err != nil {
			continue
		}
		dir := path.Dir(t)
		for _, line := range strings.Split(string(b), "\n") {
			f := strings.Fields(strings.TrimSpace(line))
			if len(f) == 0 {
				continue
			}
			switch f[0] {
			case "dotenv", "dotenv_if_exists", "source_env", "source_env_if_exists", "watch_file":
			default:
				continue
			}
			args := f[1:]
			if len(args) == 0 && strings.HasPrefix(f[0], "dotenv") {
				args = []string{".env"}
			}
			for _, a := range args {
				a = strings.Trim(a, `"'`)
				if strings.ContainsAny(a, "$*?`") {
					in := path.Join(dir, path.Dir(a))
					if strings.ContainsAny(path.Dir(a), "$*?`") || in == ".." || strings.HasPrefix(in, "../") || path.IsAbs(a) {
						in = dir
					}
					out = append(out, dotEnvs(root, in)...)
					continue
				}
				if p := path.Join(dir, a); !path.IsAbs(a) && p != "." && !strings.HasPrefix(p, "../") && p != ".." {
					out = append(out, p)
				}
			}
		}
	}
	return out
}

// dotEnvs lists the .env files (.env, .env.local, prod.env, ...) in dir, and .env itself whether it exists or
// not.
func dotEnvs(root *os.Root, dir string) []string {
	out := []string{path.Join(dir, ".env")}
	f, err := root.Open(dir)
	if err != nil {
		return out
	}
	defer f.Close()
	names, _ := f.Readdirnames(-1)
	for _, n := range names {
		if strings.HasPrefix(n, ".env.") || strings.HasSuffix(n, ".env") && n != ".env" {
			out = append(out, path.Join(dir, n))
		}
	}
	return out
}

// dropChangedCaches removes each __pycache__ of deps that a command (not an install) changed, where no bind could
// hold it (changed lists the changed packages, depsChanged): a cache, which Python fills again from the source,
// so removing it puts back what matters, the source being what runs.
func dropChangedCaches(root *os.Root, deps, changed []string) []string {
	u := gitguard.NewPutBack(root)
	for _, d := range deps {
		if path.Base(d) == "__pycache__" && slices.ContainsFunc(changed, func(c string) bool { return strings.HasPrefix(c, d+"/") }) {
			u.Remove(d, "removed "+d+", compiled Python the command changed (Python compiles it again from the source)")
		}
	}
	return u.Report()
}
