package tools

import (
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/rooted-dev/rooted/backend/gitguard"
	"github.com/rooted-dev/rooted/backend/sandbox"
	"github.com/rooted-dev/rooted/backend/shell"
	"github.com/rooted-dev/rooted/backend/tool"
)

// commandGuard protects, around one command, what tools outside the sandbox run or trust later: bound read-only
// for the whole run where the sandbox has a mount namespace, watched and put back as it changes where it has not
// or where a path is not there yet, and compared before and after as the last word; and it notes what the command
// changed in dependency folders.
type commandGuard struct {
	root       *os.Root
	abs        string
	git        *gitguard.State
	pr         protection
	bound      []string // what the helper binds read-only: none without a mount namespace
	home       fs.FileInfo
	depsBefore map[string]uint64
	watcher    *watcher
	// after is the project as the comparison after the command left it (nil where it did not finish); newDeps the
	// dependency folders the command created (leftBehind).
	after   *gitguard.State
	newDeps []string
	// unchecked: the comparison after the command did not finish in time, so nothing may be said to be put back.
	unchecked bool
}

// guardCommand records the state the guard compares against and sets spec's read-only and pinned paths.
func guardCommand(guard *gitguard.Guard, root *os.Root, abs string, spec *shell.Spec) (*commandGuard, error) {
	git, err := guard.ScanWithin(root, abs)
	if err != nil {
		return nil, &tool.Error{Code: tool.CodeInternal, Message: err.Error() + "; nothing was run: a folder of the project may hang whoever reads it (a network mount, a named pipe)"}
	}
	g := &commandGuard{root: root, abs: abs, git: git}
	g.pr = protect(git, root, abs, spec.Argv, envValue(spec.Env, "PATH"))
	spec.Policy.ReadOnly = g.pr.readOnly(abs)
	spec.Policy.Pinned = g.pr.pinned(abs, spec.Policy.ReadOnly)
	if spec.Sandbox.Active && spec.Sandbox.Processes == sandbox.ProcessesNamespace {
		g.bound = spec.Policy.ReadOnly
	}
	if g.pr.depsWritable || spec.Sandbox.Processes != sandbox.ProcessesNamespace {
		g.depsBefore = depPrints(abs, g.pr.deps)
	}
	g.home = gitguard.Home(root)
	return g, nil
}

// watch starts watching what could not be bound; stop ends the command at the first change put back.
func (g *commandGuard) watch(stop func()) {
	g.watcher = watchProtected(g.root, g.abs, g.pr.watched(g.abs, nil), g.pr.watched(g.abs, g.bound), g.git, stop, g.pr.createdRule(g.git))
}

// finish stops watching, moves back a .git the command renamed away, and puts back what the command changed that
// git would run later. tripped names the first watched change, which ended the command. ran is the sandbox the
// command ran in: where it had no mount namespace after all, nothing was bound, and every path is checked.
func (g *commandGuard) finish(ran sandbox.Info) (restored []string, tripped string) {
	restored, tripped = g.watcher.close(len(g.bound) > 0 && ran.Processes != sandbox.ProcessesNamespace)
	if back := gitguard.MoveBack(g.root, g.home); back != "" {
		restored = append(restored, back)
	}
	said, after, err := g.git.RestoreWithin(g.root, g.abs)
	g.unchecked = err != nil
	restored = append(restored, said...)
	if after != nil { // what the command created that the name rule protects
		g.after = after
		left, made := leftBehind(g.root, g.git, after, g.pr.depsWritable)
		restored, g.newDeps = append(restored, left...), made
	}
	return restored, tripped
}

// explain fills out's protection, dependency changes and hints: what a failure likely means and what the guard
// did, in words the model can act on.
func (g *commandGuard) explain(out *execShellOut, policy sandbox.Policy, tripped string) {
	res := &out.Result
	if res.Sandbox.Protection == "" { // nothing to bind: what is not there yet was watched all the same
		res.Sandbox.Protection = sandbox.ProtectionWatched
		if res.Sandbox.Active && res.Sandbox.Processes == sandbox.ProcessesNamespace {
			res.Sandbox.Protection = sandbox.ProtectionReadOnly
		}
	}
	out.Hint = shell.NetworkHint(*res, policy)
	if out.Hint == "" {
		out.Hint = shell.SandboxHint(*res, policy) // the sandbox's lists reach a model only when they explain a failure
	}
	if tripped != "" {
		// The watcher sees a change, not who made it: where the binds hold, only what did not exist is watched, which
		// the command or the user may have made.
		out.StoppedBecause = tripped + " changed while the command ran, and tools outside the sandbox run or trust it; Rooted put it back and ended the command"
		out.Hint = strings.TrimSpace(out.Hint + " Rooted ended the command: " + out.StoppedBecause + ".")
	}
	if g.depsBefore != nil {
		out.DependenciesChanged = depsChanged(g.depsBefore, depPrints(g.abs, slices.Concat(g.pr.deps, g.newDeps)))
	}
	if !g.pr.depsWritable { // removed: nothing of them is left to fingerprint
		out.DependenciesChanged = slices.Compact(slices.Sorted(slices.Values(append(out.DependenciesChanged, g.newDeps...))))
		out.GitRestored = append(out.GitRestored, dropChangedCaches(g.root, g.pr.deps, out.DependenciesChanged)...)
	}
	if g.after != nil {
		out.OutputsChanged = g.git.OutputsChanged(g.after)
	}
	switch {
	case g.unchecked:
		out.Hint = strings.TrimSpace(out.Hint + " Rooted could not finish checking what git runs later after this command (" + strings.Join(out.GitRestored, "; ") + "). Tell the user: git in this project should not be run until its git folders have been looked at.")
	case len(out.GitRestored) > 0:
		out.Hint = strings.TrimSpace(out.Hint + " The command changed what git, editors or hooks run later, outside the sandbox (" + strings.Join(out.GitRestored, "; ") + "); Rooted put it back. Do not change git hooks, executable git settings or editor task files with commands.")
	}
	if res.ExitCode != 0 && res.Sandbox.Protection == sandbox.ProtectionReadOnly && readOnlyRefusal(res.Stderr) {
		out.Hint = strings.TrimSpace(out.Hint + " What tools outside the sandbox run later is read-only to commands: every git folder's config, config.worktree, commondir, hooks and info, a core.hooksPath folder, the project's folders on PATH, editor, hook-manager and coding-agent files (.vscode, .idea, .envrc, lefthook.yml, .claude, .mcp.json, go.work, ...), and dependency folders (node_modules, .venv, __pycache__, ...) but to the package manager's install commands. If such a change is needed, ask the user to make it, or edit a work-tree file with the file tools.")
	}
	if len(out.DependenciesChanged) > 0 && !g.pr.depsWritable {
		out.Hint = strings.TrimSpace(out.Hint + " The command changed code in dependency folders that hooks and test runners run (" + strings.Join(out.DependenciesChanged, ", ") + "); only the package manager's install commands should.")
	}
}
