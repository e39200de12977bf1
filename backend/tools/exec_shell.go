package tools

import (
	"context"
	_ "embed"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rooted-dev/rooted/backend/files"
	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/shell"
	"github.com/rooted-dev/rooted/backend/tool"
)

//go:embed exec_shell.md
var execShellDoc string

type execShellIn struct {
	Command   string   `json:"command" jsonschema:"the program and its arguments as one line (split with shell quoting), or the program alone when args is given" tool:"nonempty"`
	Args      []string `json:"args,omitempty" jsonschema:"arguments, each passed as is"`
	TimeoutMS int64    `json:"timeout_ms,omitempty" jsonschema:"stop the program after this many milliseconds (default 30000)" tool:"min=1"`
	Backup    *bool    `json:"backup,omitempty" jsonschema:"record a snapshot of the project first, so the command's changes can be undone (default true)"`
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
}

func execShell(d Deps) *tool.Tool {
	return tool.New(tool.Def{
		Name: "exec_shell", Title: "Run command", Description: execShellDoc, Destructive: true,
		Examples: []string{`{"command": "go test ./..."}`, `{"command": "git", "args": ["log", "--oneline", "-5"]}`, `{"command": "npm test", "timeout_ms": 120000}`},
	}, func(ctx context.Context, in execShellIn) (execShellOut, error) {
		argv, err := in.argv()
		if err != nil {
			return execShellOut{}, err
		}
		info, err := d.Session.Info()
		if err != nil {
			return execShellOut{}, err
		}
		proj := d.projectSettings(info.Root)
		if err := shell.Allowed(argv[0], proj.EffectiveAllowlist()); err != nil {
			return execShellOut{}, &tool.Error{
				Code: tool.CodeNotAllowed, Field: "command", Message: err.Error(),
				Details: map[string]any{"allowlist": proj.EffectiveAllowlist()},
			}
		}
		if why := shell.RunsPrograms(argv); why != "" {
			return execShellOut{}, &tool.Error{
				Code: tool.CodeInvalidArgument, Field: "command",
				Message: why + ": refused, as the programs it would run are not on the allowlist; nothing was run",
			}
		}
		if opt := shell.FollowsLinks(argv); opt != "" {
			return execShellOut{}, &tool.Error{
				Code: tool.CodeInvalidArgument, Field: "command",
				Message: fmt.Sprintf("%s %s follows symbolic links, which can lead outside the project; leave it out (grep -r, find without -L), nothing was run", argv[0], opt),
			}
		}
		for _, p := range shell.PathArgs(argv) {
			if err := d.insideRoot(p); err != nil {
				e := Classify(err)
				if e.Code == tool.CodeOutsideRoot {
					e.Message = fmt.Sprintf("outside the project root: %s names %s; file arguments must stay inside the project, nothing was run", argv[0], p)
					e.Path = p
				}
				return execShellOut{}, e
			}
			if shell.ChangesFiles[argv[0]] {
				if why := d.holdsGitData(p); why != "" {
					return execShellOut{}, &tool.Error{
						Code: tool.CodePermissionDenied, Path: p,
						Message: fmt.Sprintf("%s names %s, %s: a repository's history cannot be restored from a snapshot, so commands may not remove, move or overwrite it; nothing was run", argv[0], p, why),
					}
				}
			}
		}
		timeout := settings.DefaultTimeout
		if in.TimeoutMS > 0 {
			timeout = time.Duration(in.TimeoutMS) * time.Millisecond
		}
		if max := proj.MaxTimeout(); timeout > max {
			return execShellOut{}, &tool.Error{
				Code: tool.CodeInvalidArgument, Field: "timeout_ms",
				Message: fmt.Sprintf("timeout_ms must be at most %d (this project's maximum)", max.Milliseconds()),
			}
		}
		backup, err := d.backup(ctx, in.Backup, "Backup before command: "+strings.Join(argv, " "))
		if err != nil {
			return execShellOut{}, err
		}
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
		// npm and pip read credentials from the user's config files; commands get empty ones instead.
		npmrc := filepath.Join(tmp, ".npmrc")
		if err := os.WriteFile(npmrc, nil, 0o600); err != nil {
			return execShellOut{}, err
		}
		spec := shell.Spec{
			Argv: argv, Dir: dir, Timeout: timeout, Policy: policy, Sandbox: shell.Probe(policy),
			// PWD names the directory as the user knows it; a program that finds it is not where it runs asks the
			// kernel instead.
			Env: shell.Env(os.Environ(), d.SecretEnv, append([]string{"PWD=" + info.Cwd, "TMPDIR=" + tmp, "NPM_CONFIG_USERCONFIG=" + npmrc, "PIP_CONFIG_FILE=" + os.DevNull}, goEnv...)...),
		}
		if p := tool.ProgressFrom(ctx); p != nil {
			spec.Live = p
		}
		root, err := d.Session.Resolve(info.Root)
		if err != nil {
			return execShellOut{}, err
		}
		git := guardGit(root.Root)
		res, err := shell.Run(ctx, spec)
		restored := git.restore(root.Root)
		if err != nil {
			return execShellOut{}, err
		}
		// The command may have changed anything in the project: the search index re-reads what it reports.
		d.changedAll()
		out := execShellOut{Command: argv, Cwd: info.CwdRel, Backup: backup, Result: res, Hint: shell.NetworkHint(res, policy), GitRestored: restored}
		if len(restored) > 0 {
			out.Hint = strings.TrimSpace(out.Hint + " The command changed what git runs later, outside the sandbox (" + strings.Join(restored, "; ") + "); Rooted put it back. Do not change git hooks or executable git settings.")
		}
		return out, nil
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
