package tools

import (
	"context"
	_ "embed"
	"os"
	"path/filepath"
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
			goEnv, _ := shell.GoCaches(shell.ToolCacheDir(info.Root), proj.Network, os.Getenv) // writable in the policy
			// git and cargo read credentials from the user's configuration; commands get filtered copies instead.
			gitEnv, _ := gitconfig.SandboxGlobal(tmp, os.Getenv)
			goEnv = append(append(goEnv, gitEnv...), shell.CargoHome(tmp, shell.ToolCacheDir(info.Root), os.Getenv)...)
			goEnv = append(goEnv, shell.PackageCaches(shell.ToolCacheDir(info.Root), os.Getenv)...) // writable in the policy
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
			root, err := d.Session.Resolve(info.Root)
			if err != nil {
				return execShellOut{}, err
			}
			git := guardGit(root.Root, info.Root)
			res, err := shell.Run(ctx, spec)
			restored := git.restore(root.Root, info.Root)
			if err != nil {
				return execShellOut{}, err
			}
			// The command may have changed anything in the project: the search index re-reads what it reports.
			d.changedAll()
			out := execShellOut{Command: argv, Cwd: info.CwdRel, Backup: backup, Result: res, Hint: shell.NetworkHint(res, policy), GitRestored: restored}
			if out.Hint == "" {
				out.Hint = shell.SandboxHint(res, policy) // the sandbox's lists reach a model only when they explain a failure
			}
			if len(restored) > 0 {
				out.Hint = strings.TrimSpace(out.Hint + " The command changed what git runs later, outside the sandbox (" + strings.Join(restored, "; ") + "); Rooted put it back. Do not change git hooks or executable git settings.")
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
