package worktree

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/rooted-dev/rooted/backend/gitexec"
	"github.com/rooted-dev/rooted/backend/tool"
)

// repo is the project's git repository: its top folder (the project itself) and the folder its objects, refs and
// worktree records live in.
type repo struct {
	top    string
	common string
}

// openRepo finds the repository whose top folder is project, refusing a project that is not one (or only a
// folder inside one) and a repository without a commit to branch from.
func openRepo(ctx context.Context, project string) (repo, error) {
	abs, err := filepath.Abs(project)
	if err != nil {
		return repo{}, err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return repo{}, &tool.Error{Code: tool.CodeNotFound, Path: project, Message: "cannot open project " + project + ": " + err.Error()}
	}
	out, err := gitexec.Cmd{Dir: real}.Run(ctx, nil, "rev-parse", "--path-format=absolute", "--show-toplevel", "--git-common-dir")
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if err != nil || len(lines) != 2 {
		return repo{}, &tool.Error{
			Code: tool.CodeNotARepository, Path: real,
			Message: fmt.Sprintf("%s is not a git repository, so it cannot have worktrees (git init and commit first); nothing was changed", real),
		}
	}
	r := repo{top: filepath.Clean(lines[0]), common: filepath.Clean(lines[1])}
	if top, err := filepath.EvalSymlinks(r.top); err == nil {
		r.top = top
	}
	if r.top != real {
		return repo{}, &tool.Error{
			Code: tool.CodeNotARepository, Path: real,
			Message: fmt.Sprintf("%s is a folder inside the git repository %s; worktrees are made of a whole repository: open %s as the project; nothing was changed", real, r.top, r.top),
		}
	}
	if _, err := r.git(r.top).Run(ctx, nil, "rev-parse", "--verify", "--quiet", "HEAD^{commit}"); err != nil {
		return repo{}, &tool.Error{
			Code: tool.CodeNoCommit, Path: real,
			Message: fmt.Sprintf("%s has no commit yet, so there is nothing to branch a worktree from: commit first; nothing was changed", real),
		}
	}
	return r, nil
}

// git returns the hardened git for a command run in dir (the project or one of its worktrees): when sandboxed it
// reads and writes dir and the repository's own folder, nothing else.
func (r repo) git(dir string, write ...string) gitexec.Cmd {
	return gitexec.Cmd{Dir: dir, Read: []string{r.common}, Write: append([]string{dir, r.common}, write...)}
}

// filtered is git for a command that reads or writes work-tree files (worktree add, add, status): the project's
// attribute filters are switched off, so no program its configuration names runs.
func (r repo) filtered(ctx context.Context, dir string, write ...string) (gitexec.Cmd, error) {
	return r.git(dir, write...).WithoutFilters(ctx)
}

// objects is git reading only the repository's objects and refs.
func (r repo) objects() gitexec.Cmd {
	return gitexec.Cmd{Dir: r.common, Env: []string{"GIT_DIR=" + r.common}, ObjectsOnly: true}
}

// hasBranch reports whether refs/heads/name exists.
func (r repo) hasBranch(ctx context.Context, name string) bool {
	_, err := r.objects().Run(ctx, nil, "show-ref", "--verify", "--quiet", "refs/heads/"+name)
	return err == nil
}

// validBranch reports whether git accepts name as a branch name.
func (r repo) validBranch(ctx context.Context, name string) bool {
	if strings.HasPrefix(name, "-") {
		return false
	}
	_, err := r.objects().Run(ctx, nil, "check-ref-format", "--branch", name)
	return err == nil
}

// head returns the commit dir's HEAD names.
func (r repo) head(ctx context.Context, dir string) (string, error) {
	out, err := r.git(dir).Run(ctx, nil, "rev-parse", "--verify", "HEAD^{commit}")
	return strings.TrimSpace(string(out)), err
}

// stateTree records the worktree at dir as it is now, committed or not (what git add -A would stage, so ignored
// files are left out), and returns its tree. The worktree's own index is copied, not changed: it only saves
// hashing files whose stat data has not changed.
func (r repo) stateTree(ctx context.Context, dir string) (string, error) {
	src, err := r.indexOf(ctx, dir)
	if err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp("", "rooted-worktree-index-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	index := filepath.Join(tmp, "index")
	// The copy keeps the index's time: git trusts an entry's stat data only when the file is older than the
	// index, and a copy made now would make a file changed within the index's last second look unchanged.
	if b, err := os.ReadFile(src); err == nil {
		fi, err := os.Stat(src)
		if err == nil {
			err = os.WriteFile(index, b, 0o600)
		}
		if err == nil {
			err = os.Chtimes(index, fi.ModTime(), fi.ModTime())
		}
		if err != nil {
			return "", err
		}
	}
	g, err := r.filtered(ctx, dir, tmp)
	if err != nil {
		return "", err
	}
	g.Env = append(g.Env, "GIT_INDEX_FILE="+index)
	if _, err := g.Run(ctx, nil, "add", "--all", "--", "."); err != nil {
		return "", err
	}
	out, err := g.Run(ctx, nil, "write-tree")
	return strings.TrimSpace(string(out)), err
}

// indexOf returns the index file of the worktree at dir.
func (r repo) indexOf(ctx context.Context, dir string) (string, error) {
	out, err := r.git(dir).Run(ctx, nil, "rev-parse", "--path-format=absolute", "--git-path", "index")
	return strings.TrimSpace(string(out)), err
}

// change is one path that differs between two trees.
type change struct {
	Path             string // slash-separated, from the top folder
	OldMode, NewMode string // "000000" where absent
	OldID, NewID     string
}

func (c change) added() bool   { return c.OldMode == "000000" }
func (c change) deleted() bool { return c.NewMode == "000000" }

// changes lists what differs between the trees (or commits) from and to, path by path, renames as a deletion and
// an addition.
func (r repo) changes(ctx context.Context, from, to string) ([]change, error) {
	out, err := r.objects().Run(ctx, nil, "diff-tree", "-r", "-z", "--no-renames", "--no-ext-diff", "--no-textconv", from, to)
	if err != nil {
		return nil, err
	}
	fields := strings.Split(string(out), "\x00")
	var list []change
	for i := 0; i+1 < len(fields); i += 2 {
		meta := strings.Fields(strings.TrimPrefix(fields[i], ":"))
		if len(meta) < 5 {
			return nil, fmt.Errorf("git diff-tree: unexpected line %q", fields[i])
		}
		list = append(list, change{Path: fields[i+1], OldMode: meta[0], NewMode: meta[1], OldID: meta[2], NewID: meta[3]})
	}
	return list, nil
}

// blobs reads the objects ids name, by id.
func (r repo) blobs(ctx context.Context, ids []string) (map[string][]byte, error) {
	got := map[string][]byte{}
	if len(ids) == 0 {
		return got, nil
	}
	out, err := r.objects().Run(ctx, []byte(strings.Join(ids, "\n")+"\n"), "cat-file", "--batch")
	if err != nil {
		return nil, err
	}
	br := bufio.NewReader(bytes.NewReader(out))
	for range ids {
		line, err := br.ReadString('\n')
		if err != nil {
			return nil, fmt.Errorf("git cat-file: %w", err)
		}
		f := strings.Fields(line)
		if len(f) != 3 {
			return nil, fmt.Errorf("git cat-file: %s", strings.TrimSpace(line))
		}
		size, err := strconv.Atoi(f[2])
		if err != nil {
			return nil, fmt.Errorf("git cat-file: %s", strings.TrimSpace(line))
		}
		b := make([]byte, size)
		if _, err := io.ReadFull(br, b); err != nil {
			return nil, fmt.Errorf("git cat-file: %w", err)
		}
		if _, err := br.Discard(1); err != nil {
			return nil, fmt.Errorf("git cat-file: %w", err)
		}
		got[f[0]] = b
	}
	return got, nil
}

// identity is the author and committer of a commit made on a worktree's branch: the repository's own user, else
// the user's global one (read from their file, as git would, by a git that runs nothing), else Rooted.
func (r repo) identity(ctx context.Context, dir string) []string {
	get := func(key string) string {
		if out, err := r.git(dir).Run(ctx, nil, "config", "--get", key); err == nil {
			return strings.TrimSpace(string(out))
		}
		for _, f := range globalConfigs() {
			if out, err := (gitexec.Cmd{Dir: dir}).Run(ctx, nil, "config", "--file", f, "--get", key); err == nil {
				return strings.TrimSpace(string(out))
			}
		}
		return ""
	}
	name, email := get("user.name"), get("user.email")
	if name == "" {
		name = "Rooted"
	}
	if email == "" {
		email = "rooted@localhost.invalid"
	}
	return []string{"GIT_AUTHOR_NAME=" + name, "GIT_AUTHOR_EMAIL=" + email, "GIT_COMMITTER_NAME=" + name, "GIT_COMMITTER_EMAIL=" + email}
}

// globalConfigs are the user's git configuration files, where they exist.
func globalConfigs() []string {
	var list []string
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" {
		list = append(list, filepath.Join(x, "git", "config"))
	}
	if home, err := os.UserHomeDir(); err == nil {
		list = append(list, filepath.Join(home, ".config", "git", "config"), filepath.Join(home, ".gitconfig"))
	}
	var found []string
	for _, f := range list {
		if fi, err := os.Stat(f); err == nil && fi.Mode().IsRegular() {
			found = append(found, f)
		}
	}
	return found
}

var errGone = errors.New("the worktree's folder is gone")
