package tools

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rooted-dev/rooted/backend/gitguard"
	"github.com/rooted-dev/rooted/backend/sandbox"
)

// What a command may not change: what a tool outside the sandbox later runs or trusts, with no decision by the
// user. Landlock lets a command write its whole project; these paths are taken out of it for the whole run, bound
// read-only in the command's mount namespace (and, where no namespace can be made, watched and put back as soon as
// they change: the weaker mode, which the result names). The file tools, whose every write the user sees and can
// undo, may still change the work-tree files among them (.vscode/tasks.json, .husky/pre-commit).
//
//   - every git folder's settings and hooks: config, config.worktree, commondir, gitdir, hooks/, info/ (of the
//     project's repository, nested ones, submodules in .git/modules, linked worktrees, folders git takes for a
//     repository by its own rules (package gitdir), and the common folder a commondir names);
//   - files the configuration includes from the work tree, and a core.hooksPath folder in it (husky's .husky);
//   - the project's folders on PATH (a venv's bin, node_modules/.bin): whatever is found there first runs;
//   - editor and tool files that run programs (editorFiles);
//   - dependency folders (gitguard.IsDependencyFolder): hooks (husky, lint-staged, lefthook, pre-commit) and npm test run their
//     code; writable only to the package manager's own install commands (installs), and reported then.

// editorFiles are the work-tree files and folders, at the project's root, that editors and shell tools run
// programs from when the user opens the folder, enters it, or commits. A folder is protected whole: nothing in
// .vscode or .idea is left writable, so new kinds of task files are covered too.
var editorFiles = []string{
	".vscode", ".idea", ".zed", ".fleet", ".devcontainer", ".envrc", ".direnv", ".mise.toml", "mise.toml", ".mise",
	".pre-commit-config.yaml", "lefthook.yml", ".lefthook.yml", "lefthook-local.yml", ".lefthook-local.yml",
	".lintstagedrc", ".lintstagedrc.json", ".lintstagedrc.js", ".lintstagedrc.cjs", ".lintstagedrc.mjs",
	"lint-staged.config.js", "lint-staged.config.cjs", "lint-staged.config.mjs", ".huskyrc", ".huskyrc.json",
	// Run on the host or by every command of a tool the user types: a dev container's initializeCommand,
	// yarnPath/yarn-path (even yarn --version), pnpm's hooks file, bun's preload, npm's node-options, mise's hooks
	// (every name it reads), cargo's rustc-wrapper and runners.
	".devcontainer.json", ".yarnrc", ".yarnrc.yml", ".pnpmfile.cjs", "bunfig.toml", ".npmrc",
	"mise.local.toml", ".mise.local.toml", ".config/mise.toml", ".config/mise", "mise/config.toml", ".tool-versions",
	".cargo",
	// Read by go itself, ignored by git in most Go projects: a workspace's replace directives win over go.mod's.
	"go.work", "go.work.sum",
}

// agentFiles are the project files and folders of AI coding agents (the clients Rooted serves over MCP among
// them) that start programs on the host: hooks run before and after each tool call, MCP servers started by the
// client, plugins, lint and test commands, permission settings that let those run unasked. A folder is protected
// whole, as editors' are. They are read wherever the agent is started, so they are tool files at any depth.
var agentFiles = []string{
	".claude", ".mcp.json", ".cursor", ".gemini", ".codex", ".opencode", "opencode.json", "opencode.jsonc", ".qwen",
	".crush", ".crush.json", "crush.json", ".continue", ".roo", ".kiro", ".amazonq", ".windsurf", ".clinerules",
	".aider.conf.yml", ".junie", ".trae", ".augment", ".amp",
}

// nestedEditorFiles are the names of editorFiles that tools also read in subfolders: a folder of a monorepo
// opened on its own or as a workspace folder (VS Code's multi-root workspaces), a package's own .npmrc or
// .yarnrc, direnv and mise on cd. Those found anywhere in the project (and *.code-workspace files, which open
// with their tasks) are protected as the root's are.
var nestedEditorFiles = map[string]bool{
	".vscode": true, ".idea": true, ".zed": true, ".devcontainer": true, ".devcontainer.json": true, ".envrc": true,
	".mise.toml": true, "mise.toml": true, ".mise.local.toml": true, "mise.local.toml": true, ".npmrc": true,
	".yarnrc": true, ".yarnrc.yml": true, ".pnpmfile.cjs": true, "bunfig.toml": true, ".cargo": true,
	".tool-versions": true, ".pre-commit-config.yaml": true, "lefthook.yml": true, ".lefthook.yml": true,
	"go.work": true, "go.work.sum": true,
}

// isToolName reports whether a file or folder named name, wherever it is in the work tree, is one that tools
// outside the sandbox run programs from: the rule the guard's walk finds them by (gitguard.Guard.WithToolNames),
// and a command's new files are judged by (leftBehind).
func isToolName(name string) bool {
	return nestedEditorFiles[name] || slices.Contains(agentFiles, name) || strings.HasSuffix(name, ".code-workspace")
}

// installs are the package managers' own commands that fill the dependency folders: a command among them may write
// them (what it changed is reported), any other may not.
var installs = map[string][]string{
	"npm":    {"install", "i", "ci", "add", "uninstall", "remove", "rm", "update", "up", "rebuild", "dedupe", "prune", "link"},
	"pnpm":   {"install", "i", "add", "remove", "rm", "update", "up", "rebuild", "prune", "link", "import"},
	"yarn":   {"", "install", "add", "remove", "upgrade", "up", "rebuild", "link", "dedupe"},
	"bun":    {"install", "i", "add", "remove", "rm", "update", "link"},
	"pip":    {"install", "uninstall"},
	"pip3":   {"install", "uninstall"},
	"uv":     {"sync", "add", "remove", "venv", "pip"},
	"poetry": {"install", "add", "remove", "update", "lock", "sync"},
	"pipenv": {"install", "uninstall", "sync", "update"},
	"pdm":    {"install", "add", "remove", "update", "sync", "venv"},
	"hatch":  {"env"},
	"rye":    {"sync", "add", "remove"},
	"deno":   {"install", "add", "remove"},
	// These make a virtual environment whatever their arguments.
	"virtualenv": {"*"}, "tox": {"*"}, "nox": {"*"},
	"python": {"-m"}, "python3": {"-m"}, // -m pip / -m venv, checked below
}

// isInstall reports whether argv is a package manager installing or removing dependencies.
func isInstall(argv []string) bool {
	if len(argv) == 0 {
		return false
	}
	name := filepath.Base(argv[0])
	subs, ok := installs[name]
	if !ok {
		return false
	}
	if slices.Equal(subs, []string{"*"}) {
		return true
	}
	sub := ""
	for _, a := range argv[1:] {
		if !strings.HasPrefix(a, "-") || a == "-m" {
			sub = a
			break
		}
	}
	if sub == "-m" { // python -m pip install, python -m venv
		i := slices.Index(argv, "-m")
		return i+1 < len(argv) && (argv[i+1] == "venv" || argv[i+1] == "pip" && i+2 < len(argv) && (argv[i+2] == "install" || argv[i+2] == "uninstall"))
	}
	return slices.Contains(subs, sub)
}

// writesLinkedCaches reports whether argv may write the package caches whose files are hard-linked into
// node_modules (toolcache.LinkedPackageCaches): an install, or a runner that fetches a package into the cache to
// run it (bunx, pnpm dlx, yarn dlx). For any other command they are read-only, as node_modules is.
func writesLinkedCaches(argv []string) bool {
	if isInstall(argv) {
		return true
	}
	switch name := filepath.Base(argv[0]); {
	case name == "bunx":
		return true
	case len(argv) > 1 && (name == "bun" && argv[1] == "x" || (name == "pnpm" || name == "yarn") && argv[1] == "dlx"):
		return true
	}
	return false
}

// readOnlyIn moves dirs from the policy's writable folders to its readable ones. Landlock then refuses every
// write below them, through whatever path, in every process mode.
func readOnlyIn(policy sandbox.Policy, dirs []string) sandbox.Policy {
	policy.Writable = slices.DeleteFunc(slices.Clone(policy.Writable), func(w string) bool { return slices.Contains(dirs, w) })
	policy.Readable = append(slices.Clone(policy.Readable), dirs...)
	return policy
}

// protection is the list of root-relative paths a command may not change, found before it starts.
type protection struct {
	paths []string // existing or not: a path created during the run is put back (removed) too
	deps  []string // dependency folders
	// depsWritable: the command is an install, so the dependency folders are not among paths.
	depsWritable bool
}

// protect lists what argv may not change in the project at abs, from the git state found before it and the
// command's PATH. It creates a git folder's hooks and info folders where they are missing (as git init does), so
// that they can be bound read-only and no hook can be added in them.
func protect(st *gitguard.State, root *os.Root, abs string, argv []string, pathEnv string) protection {
	set := map[string]bool{}
	add := func(p string) {
		if p != "" && p != "." {
			set[p] = true
		}
	}
	gitDirs := map[string]bool{}
	for g := range st.Dirs() {
		gitDirs[g] = true
	}
	for p := range st.Configs() {
		if b := path.Base(p); b == "config" || b == "config.worktree" {
			if _, ok := st.Dirs()[path.Dir(p)]; ok || looksLikeGitDir(root, path.Dir(p)) {
				gitDirs[path.Dir(p)] = true
			}
		}
		add(p) // included files in the work tree too
	}
	for p := range st.Pointers() {
		gitDirs[path.Dir(p)] = true
	}
	for g := range gitDirs {
		for _, name := range []string{"config", "config.worktree", "commondir", "gitdir"} {
			add(path.Join(g, name))
		}
		// Missing hooks and info folders are made (empty, as git init makes them) in a .git folder and those in it
		// (submodules), never in a work-tree folder git merely takes for a repository (a test fixture): there the
		// watcher removes one as soon as it appears. A linked worktree's folder takes both from the common folder.
		_, err := root.Lstat(path.Join(g, "commondir"))
		create := err != nil && (g == ".git" || strings.HasPrefix(g, ".git/") || strings.HasSuffix(g, "/.git") || strings.Contains(g, "/.git/"))
		for _, name := range []string{"hooks", "info"} {
			p := path.Join(g, name)
			if _, err := root.Lstat(p); err != nil && create {
				root.Mkdir(p, 0o755)
			}
			add(p)
		}
	}
	// Whatever the guard compares after the command is held during it too (a .git file re-pointed, an include
	// target created, a hooks folder named in an included file, a todo list): otherwise a change undone before
	// the end runs outside unseen.
	for _, p := range st.Guarded() {
		add(p)
	}
	for _, f := range slices.Concat(editorFiles, agentFiles, st.Tools()) {
		add(f)
	}
	for _, f := range envrcLoads(root, st.Tools()) {
		add(f)
	}
	var pathDirs []string
	for _, dir := range filepath.SplitList(pathEnv) {
		if !filepath.IsAbs(dir) {
			continue
		}
		if rel, err := filepath.Rel(abs, filepath.Clean(dir)); err == nil && filepath.IsLocal(rel) {
			pathDirs = append(pathDirs, filepath.ToSlash(rel))
		}
	}
	pr := protection{deps: st.Deps(), depsWritable: isInstall(argv)}
	for _, d := range pathDirs {
		if !pr.depsWritable || !gitguard.InsideAny(st.Deps(), d) { // an install writes node_modules/.bin
			add(d)
		}
	}
	if !pr.depsWritable {
		for _, d := range st.Deps() {
			add(d)
		}
	}
	// Where a gitlink leads and no .git is yet (a submodule not checked out, or a gitlink the command adds: the
	// watcher follows the indexes), a .git the command creates would be entered by the user's git status, which
	// runs its core.fsmonitor: watched, so that its creation ends the command.
	for index, wt := range st.Indexes() {
		for _, l := range gitguard.Gitlinks(root, index, wt) {
			if _, err := root.Lstat(path.Join(l, ".git")); err != nil {
				add(path.Join(l, ".git"))
			}
		}
	}
	// A protected path that is a link (.git/hooks -> ../tools/hooks), or a link inside a protected folder (a hook
	// linked to a tracked script), is held with what it leads to inside the project: git runs the target.
	for p := range set {
		for _, t := range linkTargets(root, abs, p, st.Deps()) {
			if !pr.depsWritable || !gitguard.InsideAny(st.Deps(), t) {
				set[t] = true
			}
		}
	}
	for p := range set {
		pr.paths = append(pr.paths, p)
	}
	slices.Sort(pr.paths)
	return pr
}

// linkTargets lists, root-relative, where the link p leads, or the links directly in the folder p lead, when
// inside the project. A link leading out of it is not the project's to hold: the sandbox cannot write there.
// A folder's links are looked at one level deep (hooks, settings files), which is where tools follow them; but
// not in dependency folders (node_modules/.bin's hundreds of links lead into node_modules, bound whole).
func linkTargets(root *os.Root, abs, p string, deps []string) []string {
	fi, err := root.Lstat(p)
	if err != nil {
		return nil
	}
	var links []string
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		links = []string{p}
	case fi.IsDir() && !gitguard.InsideAny(deps, p):
		entries, _ := fs.ReadDir(root.FS(), p)
		for _, e := range entries {
			if e.Type()&fs.ModeSymlink != 0 {
				links = append(links, path.Join(p, e.Name()))
			}
		}
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil
	}
	var out []string
	for _, l := range links {
		t, err := filepath.EvalSymlinks(filepath.Join(real, filepath.FromSlash(l)))
		if err != nil {
			continue
		}
		if rel, err := filepath.Rel(real, t); err == nil && filepath.IsLocal(rel) {
			out = append(out, filepath.ToSlash(rel))
		}
	}
	return out
}

// looksLikeGitDir reports whether a folder holding a config file is a git folder (has a HEAD), not a work-tree
// file that a configuration includes.
func looksLikeGitDir(root *os.Root, dir string) bool {
	_, err := root.Lstat(path.Join(dir, "HEAD"))
	return err == nil
}

// readOnly is the policy's list: the protected paths that exist, absolute. A path inside another is left out (the
// outer bind covers it).
// The project's own path is resolved first: the helper binds nothing through a link, and a project under one
// (/home -> /var/home) would otherwise have nothing bound.
func (pr protection) readOnly(abs string) []string {
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	var out []string
	for _, p := range pr.paths {
		full := filepath.Join(abs, filepath.FromSlash(p))
		if fi, err := os.Lstat(full); err != nil || fi.Mode()&fs.ModeSymlink != 0 {
			continue
		}
		if !slices.ContainsFunc(out, func(o string) bool { return strings.HasPrefix(full, o+string(filepath.Separator)) }) {
			out = append(out, full)
		}
	}
	return out
}

// pinned lists, absolute and outer first, the folders inside the project above a protected path (.git for
// .git/config, web for web/node_modules, sub and sub/.git for sub/.git/hooks): bound onto themselves before the
// read-only binds, so that none can be renamed away with the binds in it (Policy.Pinned). A folder inside a
// read-only path is left out: the outer bind holds it.
func (pr protection) pinned(abs string, readOnly []string) []string {
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	set := map[string]bool{}
	for _, p := range pr.paths {
		for d := path.Dir(p); d != "." && d != "/"; d = path.Dir(d) {
			set[d] = true
		}
	}
	var out []string
	for d := range set {
		full := filepath.Join(abs, filepath.FromSlash(d))
		if slices.ContainsFunc(readOnly, func(o string) bool { return full == o || strings.HasPrefix(full, o+string(filepath.Separator)) }) {
			continue
		}
		if fi, err := os.Lstat(full); err == nil && fi.IsDir() {
			out = append(out, full)
		}
	}
	slices.Sort(out) // a folder sorts before what it holds
	return out
}

// watched are the protected paths the watcher keeps: all but the dependency folders, which are too large to keep a
// copy of (bound read-only where they can be, and fingerprinted: depPrints). Where the command has a mount
// namespace, only what could not be bound (absent, or a link): a bound path cannot change by the command's hand,
// so a change to it is the user's own (git remote add in a terminal), which is not the watcher's to undo.
func (pr protection) watched(abs string, bound []string) []string {
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	var out []string
	for _, p := range pr.paths {
		if gitguard.InsideAny(pr.deps, p) {
			continue
		}
		full := filepath.Join(abs, filepath.FromSlash(p))
		if slices.ContainsFunc(bound, func(o string) bool { return full == o || strings.HasPrefix(full, o+string(filepath.Separator)) }) {
			continue
		}
		out = append(out, p)
	}
	return out
}
