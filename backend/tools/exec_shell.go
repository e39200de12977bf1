package tools

import (
	"context"
	_ "embed"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/rooted-dev/rooted/backend/files"
	"github.com/rooted-dev/rooted/backend/gitconfig"
	"github.com/rooted-dev/rooted/backend/shell"
	"github.com/rooted-dev/rooted/backend/tool"
)

//go:embed exec_shell.md
var execShellDoc string

type execShellIn struct {
	Command   string   `json:"command" jsonschema:"the program and its arguments as one line (split with shell quoting), or the program alone when args is given" tool:"nonempty"`
	Args      []string `json:"args,omitempty" jsonschema:"arguments, each passed as is"`
	TimeoutMS int64    `json:"timeout_ms,omitempty" jsonschema:"stop the program after this many milliseconds (default: none where it can move to the background, which it does after the project's background time; 30000 in a one-shot call)" tool:"min=1"`
	Backup    *bool    `json:"backup,omitempty" jsonschema:"record a snapshot of the project first, so the command's changes can be undone (default true)"`
	// Background starts a server, a watcher or a long build as a job and returns its id at once (job_output, job_kill).
	Background bool `json:"background,omitempty" jsonschema:"run in the background and return a job id at once: for servers, watchers and long builds; read the output with job_output, stop it with job_kill"`
}

type execShellOut struct {
	Command []string `json:"command"`
	Cwd     string   `json:"cwd"`
	Backup  string   `json:"backup,omitempty"`
	shell.Result
	// Hint explains a likely cause of a failure the model can act on (the network being off).
	Hint string `json:"hint,omitempty"`
	// GitRestored says what the command changed in .git that git would run later (hooks, executable settings),
	// and that Rooted put back.
	GitRestored []string `json:"git_restored,omitempty"`
	// DependenciesChanged lists the packages of the dependency folders (node_modules, .venv, ...) the command
	// added, removed or changed: code that hooks and test runners run later.
	DependenciesChanged []string `json:"dependencies_changed,omitempty"`
	// OutputsChanged lists the build outputs (target/, dist/, build/, .next/) the command added or changed that
	// runners execute as they are: cargo run and cargo test do not rebuild a binary whose sources did not change.
	OutputsChanged []string `json:"outputs_changed,omitempty"`
	// StoppedBecause, when set, says Rooted ended the command as soon as it changed a protected path (one that
	// could not be bound read-only, or any where only watching was possible): what it changed was put back.
	StoppedBecause string `json:"stopped_because,omitempty"`
	// Job, when the command runs on in the background, is its id and how to follow it.
	Job *jobStarted `json:"job,omitempty"`
}

func execShell(d Deps) *tool.Tool {
	return tool.New(tool.Def{
		Name: "exec_shell", Title: "Run command", Description: execShellDoc, Destructive: true, TextCarries: []string{"stdout", "stderr"},
		Examples: []string{`{"command": "go test ./..."}`, `{"command": "git", "args": ["log", "--oneline", "-5"]}`, `{"command": "npm test", "timeout_ms": 120000}`, `{"command": "npm run dev", "background": true}`},
	}, func(ctx context.Context, in execShellIn) (execShellOut, error) {
		c, err := d.checkExec(in)
		if err != nil {
			return execShellOut{}, err
		}
		argv, info, proj := c.argv, c.info, c.proj
		backup, err := d.backup(ctx, in.Backup, "Backup before command: "+strings.Join(argv, " "))
		if err != nil {
			return execShellOut{}, err
		}
		run := func(ctx context.Context, live func(string, []byte), timeout time.Duration) (execShellOut, error) {
			dir, closeDir, err := commandDir(d.Session, info)
			if err != nil {
				return execShellOut{}, err
			}
			defer closeDir()
			tmp, err := os.MkdirTemp("", "rooted-exec-")
			if err != nil {
				return execShellOut{}, err
			}
			defer os.RemoveAll(tmp)
			policy := proj.Policy(info.Root, tmp)
			caches := shell.ToolCacheDir(info.Root)
			if !writesLinkedCaches(argv) {
				policy = readOnlyIn(policy, shell.LinkedPackageCaches(caches))
			}
			goEnv, _ := shell.GoCaches(caches, proj.Network, os.Getenv) // writable in the policy
			// git and cargo read credentials from the user's configuration; commands get filtered copies instead.
			gitEnv, _ := gitconfig.SandboxGlobal(tmp, os.Getenv)
			goEnv = append(append(goEnv, gitEnv...), shell.CargoHome(tmp, caches, os.Getenv)...)
			goEnv = append(goEnv, shell.PackageCaches(caches, os.Getenv)...) // writable in the policy
			if argv[0] == "npm" || argv[0] == "npx" {
				// npm's cache is the project's own; what the lockfile names comes from the user's, by hash.
				if t, err := d.Session.Resolve(info.Root); err == nil {
					shell.SeedNpmCache(caches, t.Root, os.Getenv)
				}
			}
			// npm and pip read credentials from the user's config files; commands get empty ones instead.
			npmrc := filepath.Join(tmp, ".npmrc")
			if err := os.WriteFile(npmrc, nil, 0o600); err != nil {
				return execShellOut{}, err
			}
			// PWD names the directory as the user knows it; a program that finds it is not where it runs asks the
			// kernel instead.
			env, dropped := shell.Environ(os.Environ(), proj.EnvAllow, d.SecretEnv, append([]string{"PWD=" + info.Cwd, "TMPDIR=" + tmp, "NPM_CONFIG_USERCONFIG=" + npmrc, "PIP_CONFIG_FILE=" + os.DevNull}, goEnv...)...)
			spec := shell.Spec{
				Argv: argv, Dir: dir, Timeout: timeout, Policy: policy, Sandbox: shell.Probe(policy),
				Env: env, EnvDropped: dropped,
			}
			spec.Live = live
			if d.WithoutNamespaces && spec.Sandbox.Processes == "pid namespace" {
				spec.Sandbox.Processes = "subreaper"
			}
			root, err := d.Session.Resolve(info.Root)
			if err != nil {
				return execShellOut{}, err
			}
			// What tools outside the sandbox run later is read-only for the whole run (or, without a mount
			// namespace, watched and put back as it changes); the guard's comparison after the run is the last word.
			git, err := guardGitWithin(root.Root, info.Root)
			if err != nil {
				return execShellOut{}, &tool.Error{Code: tool.CodeInternal, Message: err.Error() + "; nothing was run: a folder of the project may hang whoever reads it (a network mount, a named pipe)"}
			}
			pr := protect(git, root.Root, info.Root, argv, envValue(env, "PATH"))
			spec.Policy.ReadOnly = pr.readOnly(info.Root)
			spec.Policy.Pinned = pr.pinned(info.Root, spec.Policy.ReadOnly)
			var depsBefore map[string]uint64
			if pr.depsWritable || spec.Sandbox.Processes != "pid namespace" {
				depsBefore = depPrints(info.Root, pr.deps)
			}
			// The first change put back ends the command (the helper then ends every process it started): one race
			// per command at most, never a loop of them.
			runCtx, stopRun := context.WithCancel(ctx)
			defer stopRun()
			home := gitHome(root.Root)
			watch := watchProtected(root.Root, info.Root, pr.watched(), stopRun, git.folders, pr.createdRule(git))
			res, err := shell.Run(runCtx, spec)
			restored, tripped := watch.close()
			if back := moveBack(root.Root, home); back != "" {
				restored = append(restored, back)
			}
			said, after := git.restoreWithin(root.Root, info.Root)
			restored = append(restored, said...)
			var newDeps []string
			if after != nil { // what the command created that the name rule protects
				left, made := leftBehind(root.Root, git, after, pr.depsWritable)
				restored, newDeps = append(restored, left...), made
			}
			if err != nil {
				return execShellOut{}, err
			}
			if res.Sandbox.Protection == "" { // nothing to bind: what is not there yet was watched all the same
				res.Sandbox.Protection = "watched (weaker)"
				if res.Sandbox.Active && res.Sandbox.Processes == "pid namespace" {
					res.Sandbox.Protection = "read-only"
				}
			}
			// The command may have changed anything in the project: the search index re-reads what it reports.
			d.changedAll()
			out := execShellOut{Command: argv, Cwd: info.CwdRel, Backup: backup, Result: res, Hint: shell.NetworkHint(res, policy), GitRestored: restored}
			if out.Hint == "" {
				out.Hint = shell.SandboxHint(res, policy) // the sandbox's lists reach a model only when they explain a failure
			}
			if tripped != "" && ctx.Err() == nil {
				out.StoppedBecause = "the command changed " + tripped + ", which tools outside the sandbox run or trust; Rooted put it back and ended the command"
				out.Hint = strings.TrimSpace(out.Hint + " Rooted ended the command: " + out.StoppedBecause + ".")
			}
			if depsBefore != nil {
				out.DependenciesChanged = depsChanged(depsBefore, depPrints(info.Root, slices.Concat(pr.deps, newDeps)))
			}
			if !pr.depsWritable { // removed: nothing of them is left to fingerprint
				out.DependenciesChanged = slices.Compact(slices.Sorted(slices.Values(append(out.DependenciesChanged, newDeps...))))
				out.GitRestored = append(out.GitRestored, dropChangedCaches(root.Root, pr.deps, out.DependenciesChanged)...)
				restored = out.GitRestored
			}
			if after != nil {
				out.OutputsChanged = outputsChanged(git.outputs, after.outputs)
			}
			if len(restored) > 0 {
				out.Hint = strings.TrimSpace(out.Hint + " The command changed what git, editors or hooks run later, outside the sandbox (" + strings.Join(restored, "; ") + "); Rooted put it back. Do not change git hooks, executable git settings or editor task files with commands.")
			}
			if res.ExitCode != 0 && res.Sandbox.Protection == "read-only" && readOnlyRefusal(res.Stderr) {
				out.Hint = strings.TrimSpace(out.Hint + " What tools outside the sandbox run later is read-only to commands: every git folder's config, config.worktree, commondir, hooks and info, a core.hooksPath folder, the project's folders on PATH, editor, hook-manager and coding-agent files (.vscode, .idea, .envrc, lefthook.yml, .claude, .mcp.json, go.work, ...), and dependency folders (node_modules, .venv, __pycache__, ...) but to the package manager's install commands. If such a change is needed, ask the user to make it, or edit a work-tree file with the file tools.")
			}
			if len(out.DependenciesChanged) > 0 && !pr.depsWritable {
				out.Hint = strings.TrimSpace(out.Hint + " The command changed code in dependency folders that hooks and test runners run (" + strings.Join(out.DependenciesChanged, ", ") + "); only the package manager's install commands should.")
			}
			return out, nil
		}
		return d.runCommand(ctx, in, c, backup, run)
	})
}

// argv turns either input form into a program and its arguments.
func (in execShellIn) argv() ([]string, error) {
	if len(in.Args) > 0 {
		if strings.ContainsAny(strings.TrimSpace(in.Command), " \t") {
			return nil, &tool.Error{Code: tool.CodeInvalidArgument, Field: "command", Message: "with args, command is the program alone (no spaces); or leave out args and give the whole line in command"}
		}
		return append([]string{strings.TrimSpace(in.Command)}, in.Args...), nil
	}
	argv, err := shell.Split(in.Command)
	if err != nil {
		return nil, &tool.Error{Code: tool.CodeInvalidArgument, Field: "command", Message: err.Error()}
	}
	if len(argv) == 0 {
		return nil, &tool.Error{Code: tool.CodeInvalidArgument, Field: "command", Message: `field "command" must name a program`}
	}
	return argv, nil
}

// insideRoot checks a command's file argument: lexically inside the root, and not a symlink (or through one) that
// leads out. A path that does not exist yet is fine (mkdir, touch create it).
// holdsGitData says why the path p names git's data: a .git or something in one, or a folder holding a repository
// (the project itself, or a nested one); "" when it does not.
func (d Deps) holdsGitData(p string) string {
	t, err := d.Session.Resolve(p)
	if err != nil {
		return ""
	}
	if files.InGitDir(t.Slash()) {
		return "which is git's data"
	}
	if fi, err := t.Root.Lstat(t.Rel); err == nil && fi.IsDir() {
		if _, err := t.Root.Lstat(filepath.Join(t.Rel, ".git")); err == nil {
			return "a folder holding a git repository"
		}
	}
	return ""
}

func (d Deps) insideRoot(p string) error {
	t, err := d.Session.Resolve(p)
	if err != nil {
		return err
	}
	if _, err := t.Root.Stat(t.Rel); err != nil && isEscape(err) {
		return err
	}
	return nil
}

// envValue is the value of name in env, "" when unset.
func envValue(env []string, name string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], name+"="); ok {
			return v
		}
	}
	return ""
}

// readOnlyRefusal reports whether a command's error output says a write met a read-only bind (EROFS, or EBUSY for
// a rename over or removal of a bound file).
func readOnlyRefusal(stderr string) bool {
	for _, s := range []string{"Read-only file system", "EROFS", "Device or resource busy", "EBUSY"} {
		if strings.Contains(stderr, s) {
			return true
		}
	}
	return false
}
