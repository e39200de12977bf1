package tools

import (
	"context"
	_ "embed"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rooted-dev/rooted/backend/cmdpolicy"
	"github.com/rooted-dev/rooted/backend/files"
	"github.com/rooted-dev/rooted/backend/gitguard"
	"github.com/rooted-dev/rooted/backend/sandbox"
	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/shell"
	"github.com/rooted-dev/rooted/backend/tool"
	"github.com/rooted-dev/rooted/backend/toolcache"
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
	// One .git guard for the registry's commands: what it remembers of git's readings of configuration files
	// serves every command's scans.
	guard := gitguard.New().WithToolNames(isToolName)
	return tool.New(tool.Def{
		Name: "exec_shell", Title: "Run command", Description: execShellDoc, Destructive: true, TextCarries: []string{"stdout", "stderr"},
		Examples: []string{`{"command": "go test ./..."}`, `{"command": "git", "args": ["log", "--oneline", "-5"]}`, `{"command": "npm test", "timeout_ms": 120000}`, `{"command": "npm run dev", "background": true}`},
	}, func(ctx context.Context, in execShellIn) (execShellOut, error) {
		c, err := d.checkExec(in)
		if err != nil {
			return execShellOut{}, err
		}
		backup, err := d.backup(ctx, in.Backup, "Backup before command: "+strings.Join(c.argv, " "))
		if err != nil {
			return execShellOut{}, err
		}
		run := func(ctx context.Context, live func(string, []byte), timeout time.Duration) (execShellOut, error) {
			return d.execOnce(ctx, guard, c, backup, live, timeout)
		}
		return d.runCommand(ctx, in, c, backup, run)
	})
}

// execOnce runs one checked command in the sandbox, in a private temporary folder and with the environment built
// for it, what tools outside the sandbox run later protected for the whole run, and says what it did.
func (d Deps) execOnce(ctx context.Context, guard *gitguard.Guard, c execCheck, backup string, live func(string, []byte), timeout time.Duration) (execShellOut, error) {
	info := c.info
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
	root, err := d.Session.Resolve(info.Root)
	if err != nil {
		return execShellOut{}, err
	}
	policy := c.proj.Policy(info.Root, tmp)
	if !writesLinkedCaches(c.argv) {
		policy = readOnlyIn(policy, toolcache.LinkedPackageCaches(toolcache.ToolCacheDir(info.Root)))
	}
	if policy.Proxied && d.CommandProxy == nil {
		policy.Proxied = false
	}
	sb := sandbox.Probe(policy)
	if c.proj.Network == settings.NetworkAllowlist && d.CommandProxy == nil {
		sb.NetworkNote = "allow-list mode needs Rooted's proxy, which this program leaves out (rooted links no HTTP stack, to start fast): the command had no network; run it through rooted-mcp, rooted mcp or the window"
	}
	env, dropped, err := shell.Environment(shell.EnvRequest{
		Project: info.Root, Root: root.Root, Cwd: info.Cwd, Tmp: tmp, Program: c.argv[0], Network: c.proj.Network.On(),
		Proxy: sb.Proxy, Allow: c.proj.EnvAllow, Drop: d.SecretEnv,
	})
	if err != nil {
		return execShellOut{}, err
	}
	spec := shell.Spec{Argv: c.argv, Dir: dir, Timeout: timeout, Policy: policy, Sandbox: sb, Env: env, EnvDropped: dropped, Live: live}
	if sb.Proxy != "" {
		// One proxy per command: what it refused is this command's.
		granted := grantedHosts(ctx)
		lists := func() (allow, deny []string) {
			p := d.projectSettings(info.Root) // unreadable: no hosts, the safe side
			return append(p.Hosts(), granted...), p.DeniedHosts()
		}
		spec.Proxy = d.CommandProxy(lists, hostAsk(ctx))
	}
	if d.WithoutNamespaces && spec.Sandbox.Processes == sandbox.ProcessesNamespace {
		spec.Sandbox.Processes = sandbox.ProcessesSubreaper
	}
	g, err := guardCommand(guard, root.Root, info.Root, &spec)
	if err != nil {
		return execShellOut{}, err
	}
	// The project's git configuration without its credentials (gitredact.go).
	red := redactConfigs(ctx, root.Root, info.Root, g.git, &spec)
	defer red.close()
	// The first change put back ends the command (the helper then ends every process it started): one race per
	// command at most, never a loop of them.
	// A trip KILLs at once: a grace period would be time to plant again.
	runCtx, stopRun := context.WithCancelCause(ctx)
	defer stopRun(nil)
	g.watch(func() { stopRun(shell.ErrAbort) })
	res, err := shell.Run(runCtx, spec)
	restored, tripped := g.finish(res.Sandbox)
	if err != nil {
		return execShellOut{}, err
	}
	red.apply(&res)
	// The command may have changed anything in the project: the search index re-reads what it reports.
	d.changedAll()
	out := execShellOut{Command: c.argv, Cwd: info.CwdRel, Backup: backup, Result: res, GitRestored: restored}
	if ctx.Err() != nil {
		tripped = ""
	}
	g.explain(&out, policy, tripped)
	return out, nil
}

// argv turns either input form into a program and its arguments.
func (in execShellIn) argv() ([]string, error) {
	if len(in.Args) > 0 {
		if strings.ContainsAny(strings.TrimSpace(in.Command), " \t") {
			return nil, &tool.Error{Code: tool.CodeInvalidArgument, Field: "command", Message: "with args, command is the program alone (no spaces); or leave out args and give the whole line in command"}
		}
		return append([]string{strings.TrimSpace(in.Command)}, in.Args...), nil
	}
	argv, err := cmdpolicy.Split(in.Command)
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
