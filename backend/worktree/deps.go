package worktree

import (
	"context"
	"encoding/json"
	"os"
	"strconv"
	"strings"

	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/snapshot"
	"github.com/rooted-dev/rooted/backend/workspace"
)

// ShadowSnapshots records the main checkout in its shadow repository (package snapshot), as write_file does before
// an edit.
type ShadowSnapshots struct{ CacheDir string }

// Before takes the snapshot.
func (s ShadowSnapshots) Before(ctx context.Context, root *os.Root, abs, reason string, paths []string) (string, error) {
	repo, err := snapshot.Open(root, abs, s.CacheDir, snapshot.Options{})
	if err != nil {
		return "", err
	}
	defer repo.Stop()
	snap, err := repo.TakeFor(ctx, reason, paths)
	return snap.ID, err
}

// Seed starts the worktree's shadow repository from the index git has just written for it, so opening the
// worktree does not hash every file again for its first snapshot.
func (s ShadowSnapshots) Seed(ctx context.Context, dir, index, objects string) error {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	repo, err := snapshot.Open(root, dir, s.CacheDir, snapshot.Options{})
	if err != nil {
		return err
	}
	defer repo.Stop()
	_, err = repo.SeedFromWorktree(ctx, index, objects)
	return err
}

// ExecSetup runs the setup command through exec_shell in a one-shot workspace of the worktree, composed from the
// face's own workspace options (workspace.Open, as every project the face opens): the project's allowlist, its
// sandbox (the worktree the only folder it writes besides the caches), its network setting and the face's proxy
// for an allow-listed network, and the longest time it allows a command (max_timeout_ms).
type ExecSetup struct {
	// Options are the face's workspace options; the workspace is made one-shot, without snapshots (a fresh
	// worktree: the branch's base is its backup) and without the face's events, extensions or preparation.
	Options workspace.Options
}

// RunSetup runs argv in dir.
func (e ExecSetup) RunSetup(ctx context.Context, dir string, argv []string) SetupResult {
	res := SetupResult{Command: argv, ExitCode: -1}
	opt := e.Options
	opt.Live, opt.NoSnapshots, opt.Cwd = false, true, ""
	opt.Events, opt.Extend, opt.Prepare = nil, nil, nil
	w, err := workspace.Open(ctx, dir, "worktree-setup", opt)
	if err != nil {
		res.Error = err.Error()
		return res
	}
	defer w.Close()
	limit := settings.Project{}.MaxTimeout()
	if st := w.Settings(); st != nil {
		if p, err := st.Project(w.Root()); err == nil {
			limit = p.MaxTimeout()
		}
	}
	args, _ := json.Marshal(map[string]any{"command": argv[0], "args": argv[1:], "timeout_ms": limit.Milliseconds()})
	out, fail := w.Registry().Call(ctx, "exec_shell", args)
	if fail != nil {
		res.Error = fail.Code + ": " + fail.Message
		return res
	}
	var r struct {
		ExitCode int    `json:"exit_code"`
		Stdout   string `json:"stdout"`
		Stderr   string `json:"stderr"`
		TimedOut bool   `json:"timed_out"`
	}
	if err := json.Unmarshal(out, &r); err != nil {
		res.Error = err.Error()
		return res
	}
	res.ExitCode = r.ExitCode
	res.Output = strings.TrimSpace(r.Stdout + "\n" + r.Stderr)
	switch {
	case r.TimedOut:
		res.Error = "timed out"
	case r.ExitCode != 0:
		res.Error = "exited with status " + strconv.Itoa(r.ExitCode)
	}
	return res
}

// ForUser is the manager every face uses: worktrees and snapshots in the user's cache folder, the project's
// settings (opt.Settings, else the user's settings file) given to each worktree, and its setup command run by
// exec_shell in a workspace composed from the face's own options.
func ForUser(opt workspace.Options) (*Manager, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return nil, err
	}
	store := opt.Settings
	if store == nil {
		if path, err := settings.DefaultPath(); err == nil {
			store = settings.NewStore(path)
		}
	}
	opt.Settings = store // the worktree's settings are written and its setup command reads them through one store
	return &Manager{CacheDir: cache, Snapshots: ShadowSnapshots{CacheDir: cache}, Settings: store, Setup: ExecSetup{Options: opt}}, nil
}
