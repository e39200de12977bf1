package snapshot

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/rooted-dev/rooted/backend/gitexec"
	"github.com/rooted-dev/rooted/backend/smallfile"
	"github.com/rooted-dev/rooted/backend/snapshot/gitobj"
)

// The project's history: a command may delete .git (find .git -delete is as allowed as any find), and every
// commit with it. So each snapshot records the project's refs (branches, tags, HEAD, the stash) as they were,
// and the shadow repository holds every object they reach: the refs are copied with git fetch from the project's
// .git (through the hardened, sandboxed git, only when they changed) to refs/project/, and a snapshot's commit
// has as its parent a "project refs" commit whose tree holds one file, refs ("<object> <refname>" lines and
// "HEAD <target>"), and whose parents are the commits the refs name, so they live as long as the snapshot. A
// restore finds .git missing or broken (no HEAD) and rebuilds it from the snapshot's record: objects, refs, HEAD,
// a configuration of Rooted's (no key of the old one, so none that runs a program), and an index of HEAD.

// projectRefs reads the project's refs from its .git: ref name to object, and HEAD's target (a ref name, or an
// object when detached). ok is false when there is no plain repository to read.
func (r *Repo) projectRefs() (refs map[string]string, head string, ok bool) {
	if fi, err := r.fsys.Lstat(".git"); err != nil || !fi.IsDir() {
		return nil, "", false
	}
	b, err := smallfile.ReadIn(r.fsys, filepath.Join(".git", "HEAD"))
	if err != nil {
		return nil, "", false
	}
	head = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(string(b)), "ref:"))
	refs = map[string]string{}
	if packed, err := smallfile.ReadInMax(r.fsys, filepath.Join(".git", "packed-refs"), 64<<20); err == nil {
		for _, line := range strings.Split(string(packed), "\n") {
			f := strings.Fields(line)
			if len(f) == 2 && len(f[0]) == 40 && strings.HasPrefix(f[1], "refs/") {
				refs[f[1]] = f[0]
			}
		}
	}
	r.looseRefs("refs", refs)
	return refs, head, true
}

// looseRefs adds the loose refs below dir (a slash path inside .git), which outrank packed ones.
func (r *Repo) looseRefs(dir string, refs map[string]string) {
	f, err := r.fsys.Open(filepath.FromSlash(".git/" + dir))
	if err != nil {
		return
	}
	entries, err := f.ReadDir(-1)
	f.Close()
	if err != nil {
		return
	}
	for _, e := range entries {
		name := path.Join(dir, e.Name())
		switch {
		case e.IsDir():
			r.looseRefs(name, refs)
		case e.Type().IsRegular() && !strings.HasSuffix(name, ".lock"):
			if b, err := smallfile.ReadIn(r.fsys, filepath.FromSlash(".git/"+name)); err == nil {
				if v := strings.TrimSpace(string(b)); len(v) == 40 && strings.Trim(v, "0123456789abcdef") == "" {
					refs[name] = v
				}
			}
		}
	}
}

// encodeRefs is the refs file of a "project refs" commit.
func encodeRefs(refs map[string]string, head string) []byte {
	var b bytes.Buffer
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range refs {
			if !yield(k) {
				return
			}
		}
	}) {
		fmt.Fprintf(&b, "%s %s\n", refs[name], name)
	}
	fmt.Fprintf(&b, "HEAD %s\n", head)
	return b.Bytes()
}

// history returns the "project refs" commit for the project's refs now, copying the objects they reach into the
// shadow repository when they changed; "" when the project has no repository to record. r.mu is held.
func (r *Repo) history(ctx context.Context) (string, error) {
	refs, head, ok := r.projectRefs()
	if !ok || len(refs) == 0 {
		return "", nil
	}
	text := encodeRefs(refs, head)
	sum := sha256.Sum256(text)
	key := hex.EncodeToString(sum[:])
	if key == r.histKey {
		return r.histCommit, nil
	}
	if err := r.hold(ctx, true); err != nil {
		return "", err
	}
	// The objects first: a fetch from the project's .git into refs/project/ (what the alternates already reach
	// is not copied again; the copy of borrowed objects packs it).
	specs := []string{}
	for name := range refs {
		specs = append(specs, "+"+name+":refs/project/"+strings.TrimPrefix(name, "refs/"))
	}
	slices.Sort(specs)
	args := append([]string{"fetch", "--quiet", "--no-tags", "--no-write-fetch-head", "--no-recurse-submodules", "--no-auto-gc", "--no-auto-maintenance", "--prune", filepath.Join(r.root, ".git")}, specs...)
	c := r.gitCmd(ctx, r.held, "fetch")
	c.Config = append(c.Config, [2]string{"protocol.file.allow", "always"}, [2]string{"maintenance.auto", "false"})
	if _, err := c.Run(ctx, nil, args...); err != nil {
		return "", fmt.Errorf("copying the project's history: %w", err)
	}
	blob, err := r.objs.Write("blob", text)
	if err != nil {
		return "", err
	}
	tree, err := r.objs.WriteTree([]gitobj.Entry{{Mode: "100644", Name: "refs", SHA: blob}})
	if err != nil {
		return "", err
	}
	var parents []string
	for _, sha := range refs {
		if body, err := r.commitOrTag(sha); err == nil && body != "" && !slices.Contains(parents, body) {
			parents = append(parents, body)
		}
	}
	slices.Sort(parents)
	id, err := r.objs.WriteCommit(hex.EncodeToString(tree[:]), "Project refs\n", time.Now().Unix(), parents...)
	if err != nil {
		return "", err
	}
	r.histKey, r.histCommit = key, id
	return id, nil
}

// commitOrTag returns the commit sha names, peeling tags; "" for an object that is neither.
func (r *Repo) commitOrTag(sha string) (string, error) {
	for range 10 {
		h, err := gitobj.Hex(sha)
		if err != nil {
			return "", err
		}
		if _, err := r.objs.Read(h, "commit"); err == nil {
			return sha, nil
		}
		body, err := r.objs.Read(h, "tag")
		if err != nil {
			return "", nil
		}
		obj, _, _ := strings.Cut(string(body), "\n")
		next, ok := strings.CutPrefix(obj, "object ")
		if !ok {
			return "", nil
		}
		sha = next
	}
	return "", nil
}

// gitBroken reports whether the project's .git is gone or has no HEAD (find .git -delete leaves either).
func (r *Repo) gitBroken() bool {
	fi, err := r.fsys.Lstat(".git")
	if errors.Is(err, fs.ErrNotExist) {
		return true
	}
	if err != nil || !fi.IsDir() {
		return false // a worktree's .git file, or something Rooted does not know: left alone
	}
	_, err = r.fsys.Lstat(filepath.Join(".git", "HEAD"))
	return errors.Is(err, fs.ErrNotExist)
}

// rebuildGit recreates the project's .git from the refs a snapshot recorded: its objects (packed from the
// shadow repository), its refs and HEAD, a configuration of Rooted's, and an index of HEAD. It reports whether
// it rebuilt anything. r.mu is held.
func (r *Repo) rebuildGit(ctx context.Context, snapshot string) (bool, error) {
	hist, err := r.historyOf(snapshot)
	if err != nil || hist == "" {
		return false, err // "": taken before refs were recorded, or of a project with none
	}
	refs, head, tips, err := r.recordedRefs(ctx, hist)
	if err != nil {
		return false, err
	}
	if err := r.writeGitDir(refs, head); err != nil {
		return false, err
	}
	gitDir := filepath.Join(r.root, ".git")
	if err := r.copyObjects(ctx, gitDir, tips); err != nil {
		return false, err
	}
	// An index of HEAD, so that git status compares the files with the last commit rather than call them new.
	if _, err := r.projectGit(gitDir).Run(ctx, nil, "read-tree", "HEAD"); err != nil {
		return true, fmt.Errorf("the commits are back, but git read-tree HEAD failed: %w", err)
	}
	return true, nil
}

// historyOf returns the commit recording the project's refs that a snapshot has as its parent, or "".
func (r *Repo) historyOf(snapshot string) (string, error) {
	sha, err := gitobj.Hex(snapshot)
	if err != nil {
		return "", err
	}
	body, err := r.objs.Read(sha, "commit")
	if err != nil {
		return "", err
	}
	hist := ""
	for _, line := range strings.Split(string(body), "\n") {
		if p, ok := strings.CutPrefix(line, "parent "); ok {
			hist = p
		}
		if line == "" {
			break
		}
	}
	return hist, nil
}

// recordedRefs reads the refs a history commit recorded: each ref's object by name, what HEAD was (a ref name or
// an object), and the objects the refs point at.
func (r *Repo) recordedRefs(ctx context.Context, hist string) (refs map[string]string, head string, tips []string, err error) {
	out, err := r.git(ctx, nil, "cat-file", "blob", hist+":refs")
	if err != nil {
		return nil, "", nil, err
	}
	refs = map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		a, b, _ := strings.Cut(line, " ")
		if a == "HEAD" {
			head = b
			continue
		}
		refs[b] = a
		tips = append(tips, a)
	}
	return refs, head, tips, nil
}

// writeGitDir lays out the project's .git with the refs, HEAD and a configuration of Rooted's, and the stash's
// reflog.
func (r *Repo) writeGitDir(refs map[string]string, head string) error {
	for _, d := range []string{".git", ".git/objects/pack", ".git/objects/info", ".git/refs/heads", ".git/refs/tags", ".git/info"} {
		if err := r.fsys.MkdirAll(filepath.FromSlash(d), 0o755); err != nil {
			return err
		}
	}
	var packed strings.Builder
	packed.WriteString("# pack-refs with: peeled fully-peeled sorted \n")
	for _, name := range slices.Sorted(maps.Keys(refs)) {
		packed.WriteString(refs[name] + " " + name + "\n")
	}
	headText := head + "\n"
	if strings.HasPrefix(head, "refs/") {
		headText = "ref: " + head + "\n"
	}
	for name, content := range map[string]string{
		"packed-refs": packed.String(),
		"config":      "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n",
		"HEAD":        headText,
	} {
		if err := r.fsys.WriteFile(filepath.Join(".git", name), []byte(content), 0o644); err != nil {
			return err
		}
	}
	// git stash list reads the stash's reflog: the newest entry is the ref (older ones lived only in the reflog).
	if sha, ok := refs["refs/stash"]; ok {
		r.fsys.MkdirAll(filepath.FromSlash(".git/logs/refs"), 0o755)
		if _, err := r.fsys.Lstat(filepath.FromSlash(".git/logs/refs/stash")); errors.Is(err, fs.ErrNotExist) {
			line := fmt.Sprintf("%s %s %s %d +0000\tRestored by Rooted\n", strings.Repeat("0", 40), sha, gitobj.Ident, time.Now().Unix())
			r.fsys.WriteFile(filepath.FromSlash(".git/logs/refs/stash"), []byte(line), 0o644)
		}
	}
	return nil
}

// copyObjects puts every object the tips reach into the project's repository at gitDir: packed by the shadow
// repository and indexed into the project's.
func (r *Repo) copyObjects(ctx context.Context, gitDir string, tips []string) error {
	pack, err := r.gitCmd(ctx, r.held, "pack-objects").Command(ctx, "pack-objects", "--revs", "--stdout", "-q")
	if err != nil {
		return err
	}
	pack.Stdin = strings.NewReader(strings.Join(tips, "\n") + "\n")
	index, err := r.projectGit(gitDir).Command(ctx, "index-pack", "--stdin", "--fix-thin")
	if err != nil {
		return err
	}
	pipe, err := pack.StdoutPipe()
	if err != nil {
		return err
	}
	index.Stdin = pipe
	var stderr, stderr2 bytes.Buffer
	pack.Stderr, index.Stderr = &stderr, &stderr2
	if err := pack.Start(); err != nil {
		return err
	}
	if err := index.Run(); err != nil {
		pack.Wait()
		return fmt.Errorf("git index-pack: %v: %s %s", err, stderr2.String(), stderr.String())
	}
	if err := pack.Wait(); err != nil {
		return fmt.Errorf("git pack-objects: %v: %s", err, stderr.String())
	}
	return nil
}

// projectGit is the hardened git for the project's own (rebuilt) repository: it writes only objects and the index.
func (r *Repo) projectGit(gitDir string) gitexec.Cmd {
	return gitexec.Cmd{Dir: r.root, Env: []string{"GIT_DIR=" + gitDir, "GIT_WORK_TREE=" + r.root}, ObjectsOnly: true}
}
