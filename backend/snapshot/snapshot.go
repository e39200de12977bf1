// Package snapshot records a project's state in a shadow git repository so that every change the agent makes can
// be undone. The shadow repository lives in the user's cache directory, keyed by the project's path, with its own
// index and refs: the project's own .git, index, branches and stash are never touched, and projects that are not
// git repositories work the same.
//
// Guarantees: a snapshot holds every file git would track (it respects .gitignore, .git/info/exclude and the
// global excludes), byte for byte and with its mode, except files over MaxFileSize and heavy generated folders;
// attribute filters and line-ending conversions are switched off for the shadow repository, whatever the project's
// .gitattributes say. Restores write exactly those bytes and modes back and remove what was created since (for
// the paths restored); a restore is itself preceded by a snapshot. Every backup and restore is appended to a log.
//
// Not guaranteed: files skipped for size or as generated folders are neither saved nor touched by a restore;
// changes made during a snapshot may land in it or in the next one.
package snapshot

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rooted-dev/rooted/backend/files"
	"github.com/rooted-dev/rooted/backend/shell"
)

// MaxFileSize is the largest file a snapshot records.
const MaxFileSize = 10 << 20

// heavy are generated folders not worth recording even when a project does not ignore them.
var heavy = []string{"node_modules/", ".venv/", "venv/", "__pycache__/", ".tox/", ".next/", ".nuxt/", ".gradle/", ".terraform/", ".cache/"}

// Snapshot is one recorded state.
type Snapshot struct {
	ID     string    `json:"id"`
	Time   time.Time `json:"time"`
	Reason string    `json:"reason"`
	Files  int       `json:"files_changed"` // files that differ from the snapshot before it
	// Paths, when set, says this snapshot recorded only these paths, as they were before a change to them (an
	// edit made while the project's first full snapshot was still being taken); it restores and diffs only them.
	Paths []string `json:"paths,omitempty"`
}

// LogEntry is a line of the backup log.
type LogEntry struct {
	Time   time.Time `json:"time"`
	Action string    `json:"action"` // "backup" or "restore"
	ID     string    `json:"id"`     // the snapshot taken, or restored
	Reason string    `json:"reason,omitempty"`
	Files  int       `json:"files,omitempty"`
	Paths  []string  `json:"paths,omitempty"`  // a restore of some paths only
	Backup string    `json:"backup,omitempty"` // for a restore: the snapshot taken just before it
}

// Options tune retention.
type Options struct {
	// Keep is how many snapshots are kept at most (default 500); MaxAge how old one may get (default 30 days).
	Keep   int
	MaxAge time.Duration
}

// Repo is the shadow repository of one project.
type Repo struct {
	fsys *os.Root // the project, for what Rooted reads and removes itself
	root string   // the project's absolute path (git's work tree)
	dir  string   // the shadow repository
	opt  Options

	mu       sync.Mutex
	scanning atomic.Bool   // a full scan (the first snapshot) holds mu: TakeFor records partial snapshots meanwhile
	wake     chan struct{} // ends TakeAfter's pause: a full snapshot is wanted now
	wakeOnce sync.Once
	partial  sync.Mutex      // serializes partial snapshots, which run beside the scan, not under mu
	rehash   map[string]bool // guarded by partial: paths edited during a scan, which may have staged them first
	primed   bool            // the first full snapshot has been taken in this process
	dirtyMu  sync.Mutex      // guards dirty and rescan: the watcher marks changes without waiting for a snapshot
	dirty    map[string]bool // paths changed since the last snapshot, when tracking
	rescan   bool            // a change the watcher could not name path by path: the next snapshot scans
	track    bool
	healthy  func() bool // while tracking: whether the change reports can still be trusted
	last     Snapshot
	lastTre  string
	since    int       // snapshots since the last gc
	exclAt   time.Time // when the exclude file was last refreshed

	// Borrowed objects (seedFromProject) are copied in the background by a long-lived process (DetachBorrowed).
	detachOK      bool
	detachStarted bool
	detachStop    context.CancelFunc
	detached      chan struct{} // closed when detach has finished

	bgOnce   sync.Once
	bg       sync.WaitGroup
	bgCtx    context.Context
	bgCancel context.CancelFunc

	objs           *objects // direct object access for derived snapshots (derive.go)
	baseTre        string   // the project's tree but for the paths in dirty: what the next derivation starts from
	changedPaths   int      // paths a derivation changed
	replacedFolder bool     // a derivation rebuilt a folder whole
	derived        int      // snapshots derived so far (tests)
}

// excludeEvery bounds how often a full scan refreshes the exclude file: finding big files walks the tree, and a
// changed exclude file voids git's untracked cache.
const excludeEvery = time.Minute

// gitPath is git, resolved once outside every folder sandboxed commands may write (see shell.Trusted).
func gitPath() string { return shell.Trusted("git") }

// ErrUnknown says a snapshot id names no snapshot.
var ErrUnknown = errors.New("no such snapshot")

// Open returns the shadow repository of the project opened as fsys at root (its absolute path), creating it under
// cacheDir.
func Open(fsys *os.Root, root, cacheDir string, opt Options) (*Repo, error) {
	opt = opt.WithDefaults()
	sum := sha256.Sum256([]byte(root))
	dir := filepath.Join(cacheDir, "rooted", "snapshots", filepath.Base(root)+"-"+hex.EncodeToString(sum[:8]))
	r := &Repo{fsys: fsys, root: root, dir: dir, opt: opt, dirty: map[string]bool{}}
	if _, err := os.Stat(filepath.Join(dir, "HEAD")); err != nil {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, err
		}
		init := exec.Command(gitPath(), "init", "-q", "--bare", dir)
		init.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1")
		if out, err := init.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("creating the snapshot repository: git init: %v: %s", err, out)
		}
	}
	for _, kv := range [][2]string{
		{"core.autocrlf", "false"},
		{"core.safecrlf", "false"},
		{"core.filemode", "true"},
		{"core.symlinks", "true"},
		{"core.untrackedCache", "true"},
		{"feature.manyFiles", "true"},
		{"core.preloadIndex", "true"},
		{"core.bigFileThreshold", "1m"},
		{"gc.auto", "0"},
		{"user.name", "Rooted"},
		{"user.email", "snapshots@rooted.invalid"},
		{"core.hooksPath", "/dev/null"},
		{"commit.gpgSign", "false"},
	} {
		if _, err := r.git(context.Background(), nil, "config", kv[0], kv[1]); err != nil {
			return nil, err
		}
	}
	// info/attributes outranks every .gitattributes in the tree: no filters, no line-ending conversion.
	attrs := "* -text -eol -crlf -filter -ident -working-tree-encoding\n"
	if err := os.MkdirAll(filepath.Join(dir, "info"), 0o700); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "info", "attributes"), []byte(attrs), 0o600); err != nil {
		return nil, err
	}
	return r, nil
}

// Dir is the shadow repository's path.
func (r *Repo) Dir() string { return r.dir }

// Track switches incremental snapshots on or off. With tracking on, MarkDirty must be told of every change in the
// tree (a watcher does it) and a snapshot adds only those paths; off (the default), every snapshot scans the tree.
func (r *Repo) Track(on bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.track = on
	if !on {
		r.takeDirty()
	}
}

// TrackWhile is Track(true) for as long as healthy reports true (a watcher that has not hit its limit); when it
// turns false, snapshots scan the whole tree again.
func (r *Repo) TrackWhile(healthy func() bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.track, r.healthy = true, healthy
}

// MarkDirty notes that rel (a slash path; "" for everything) changed. It never waits for a snapshot in progress
// (the first one of a big project takes seconds; the watcher and every write call this).
func (r *Repo) MarkDirty(rel string) {
	r.dirtyMu.Lock()
	defer r.dirtyMu.Unlock()
	if rel == "" {
		r.rescan = true // re-scan the whole tree next time
		return
	}
	r.dirty[rel] = true
}

// takeDirty returns the paths marked since the last call, and whether a re-scan was asked for, and starts over:
// marks that arrive while a snapshot is being made are kept for the next one.
func (r *Repo) takeDirty() (map[string]bool, bool) {
	r.dirtyMu.Lock()
	defer r.dirtyMu.Unlock()
	d, rescan := r.dirty, r.rescan
	r.dirty, r.rescan = map[string]bool{}, false
	return d, rescan
}

// putBackDirty returns marks a failed snapshot took, so the next one records them.
func (r *Repo) putBackDirty(d map[string]bool) {
	r.dirtyMu.Lock()
	defer r.dirtyMu.Unlock()
	for p := range d {
		r.dirty[p] = true
	}
}

// git runs git on the shadow repository with the project as its work tree.
func (r *Repo) git(ctx context.Context, stdin []byte, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, gitPath(), args...)
	cmd.Dir = r.root
	cmd.Env = append(os.Environ(), "GIT_DIR="+r.dir, "GIT_WORK_TREE="+r.root, "GIT_INDEX_FILE="+filepath.Join(r.dir, "index"),
		"GIT_CONFIG_NOSYSTEM=1", "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0", "GIT_LITERAL_PATHSPECS=1", "LC_ALL=C")
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Start()
	if err == nil {
		if isBackground(ctx) {
			lowerPriority(cmd.Process.Pid)
		}
		err = cmd.Wait()
	}
	if err != nil {
		return stdout.Bytes(), fmt.Errorf("git %s: %v: %s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	return stdout.Bytes(), nil
}

// InBackground runs f (the first snapshot when a project opens) with a context that Stop cancels; Stop waits for
// it, so nothing writes the shadow repository after its process let go of it.
func (r *Repo) InBackground(f func(ctx context.Context)) {
	r.bgOnce.Do(r.initBackground)
	r.bg.Go(func() { f(r.bgCtx) })
}

func (r *Repo) initBackground() {
	r.bgCtx, r.bgCancel = context.WithCancel(Background(context.Background()))
}

type backgroundKey struct{}

// Background marks work nobody waits for (the first snapshot taken when a project opens, copying borrowed
// objects): the git processes it runs get a lower CPU priority. A call that waits for it (an edit's backup
// arriving meanwhile) does not make it faster, but partial snapshots mean no edit has to.
func Background(ctx context.Context) context.Context {
	return context.WithValue(ctx, backgroundKey{}, true)
}

func isBackground(ctx context.Context) bool { b, _ := ctx.Value(backgroundKey{}).(bool); return b }

// Take records the project's state now. An unchanged state returns the previous snapshot.
func (r *Repo) Take(ctx context.Context, reason string) (Snapshot, error) {
	return r.TakeFor(ctx, reason, nil)
}

// TakeFor records the project's state before a change to paths (nil: a change to anything, as a command's). It
// does not wait for a full scan in progress (the first snapshot of a big project, taken in the background when it
// opened): it records just paths, as they are now, in a partial snapshot (see Snapshot.Paths).
func (r *Repo) TakeFor(ctx context.Context, reason string, paths []string) (Snapshot, error) {
	if len(paths) == 0 || !r.mu.TryLock() {
		if len(paths) > 0 && r.scanning.Load() {
			return r.takePartial(reason, paths)
		}
		if len(paths) == 0 {
			select {
			case r.wakeChan() <- struct{}{}: // a full snapshot is wanted: a paused first one starts now
			default:
			}
		}
		r.mu.Lock()
	}
	defer r.mu.Unlock()
	return r.takeLocked(ctx, reason)
}

// TakeAfter is Take after a pause, for the first snapshot of a large project just opened: its first tool calls (a
// search reading every file) then have the machine to themselves instead of sharing it with a scan of the same
// files. During the pause the repository counts as scanning: an edit is recorded at once in a partial snapshot of
// its paths, and a call that needs a full snapshot (a command's backup) ends the pause. Listing, diffing and
// restoring wait for the first snapshot, as they do while it scans.
func (r *Repo) TakeAfter(ctx context.Context, pause time.Duration, reason string) (Snapshot, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.scanning.Store(true)
	defer r.scanning.Store(false)
	t := time.NewTimer(pause)
	defer t.Stop()
	select {
	case <-t.C:
	case <-r.wakeChan():
	case <-ctx.Done():
		return Snapshot{}, ctx.Err()
	}
	return r.takeLocked(ctx, reason)
}

func (r *Repo) wakeChan() chan struct{} {
	r.wakeOnce.Do(func() { r.wake = make(chan struct{}, 1) })
	return r.wake
}

// forgetEditedDuringScan drops from the staging index the paths edited while a scan ran (partial snapshots), so the
// add that follows reads them again. The scan may have staged such a file just before the edit, and an edit of
// the same size within the file's timestamp tick leaves git's stat data unchanged: git would keep the staged
// content, and the next backup would record the file as it was before the edit. r.mu is held.
func (r *Repo) forgetEditedDuringScan(ctx context.Context) error {
	r.partial.Lock()
	paths := slices.Sorted(maps.Keys(r.rehash))
	r.rehash = nil
	r.partial.Unlock()
	if len(paths) == 0 {
		return nil
	}
	if _, err := r.git(ctx, []byte(strings.Join(paths, "\x00")), "update-index", "--force-remove", "-z", "--stdin"); err != nil {
		r.partial.Lock()
		for _, p := range paths {
			if r.rehash == nil {
				r.rehash = map[string]bool{}
			}
			r.rehash[p] = true
		}
		r.partial.Unlock()
		return err
	}
	return nil
}

// takeLocked takes a full snapshot; r.mu is held.
func (r *Repo) takeLocked(ctx context.Context, reason string) (Snapshot, error) {
	if !r.primed || !r.track {
		r.scanning.Store(true) // before anything that may take a while, edits meanwhile need not wait
		defer r.scanning.Store(false)
	}
	if r.lastTre == "" {
		r.loadLast(ctx)
	}
	tree, files, err := r.presentTree(ctx)
	if err != nil {
		return Snapshot{}, err
	}
	return r.record(ctx, tree, reason, files)
}

// record commits tree as a snapshot unless it is the previous one's; files is how many paths changed, or -1 to
// ask git. r.mu is held.
func (r *Repo) record(ctx context.Context, tree, reason string, files int) (Snapshot, error) {
	if tree == r.lastTre && r.last.ID != "" {
		r.appendLog(LogEntry{Time: time.Now().UTC(), Action: "backup", ID: r.last.ID, Reason: reason + " (unchanged since " + r.last.ID[:12] + ")"})
		return r.last, nil
	}
	if files < 0 {
		files = 0
		if r.lastTre != "" {
			if out, err := r.git(ctx, nil, "diff-tree", "-r", "--name-only", "--no-renames", r.lastTre, tree); err == nil {
				files = bytes.Count(out, []byte{'\n'})
			}
		} else if out, err := r.git(ctx, nil, "ls-tree", "-r", "--name-only", tree); err == nil {
			files = bytes.Count(out, []byte{'\n'})
		}
	}
	now := time.Now().UTC()
	msg := fmt.Sprintf("%s\n\nFiles: %d\n", reason, files)
	if r.objs == nil {
		r.objs = &objects{dir: r.dir}
	}
	id, err := r.commitObject(tree, msg, now.Unix())
	if err != nil {
		return Snapshot{}, err
	}
	ref := fmt.Sprintf("refs/snapshots/%020d", now.UnixNano())
	if err := r.updateRef(ref, id); err != nil {
		return Snapshot{}, err
	}
	r.last, r.lastTre = Snapshot{ID: id, Time: now, Reason: reason, Files: files}, tree
	if r.detachOK && !r.detachStarted && r.borrowing() {
		r.startDetach() // now that a ref holds the borrowed objects, repack can see them
	}
	r.appendLog(LogEntry{Time: now, Action: "backup", ID: id, Reason: reason, Files: files})
	r.since++
	if r.since >= 50 {
		r.since = 0
		r.retain(ctx)
	}
	return r.last, nil
}

// stage brings the shadow index up to date with the tree: all of it the first time, or with tracking off; only
// the changed paths otherwise.
func (r *Repo) stage(ctx context.Context, dirty map[string]bool) error {
	if r.track && r.healthy != nil && !r.healthy() {
		r.track, r.primed = false, false
	}
	if !r.primed || !r.track {
		if !r.primed || time.Since(r.exclAt) > excludeEvery {
			if err := r.writeExcludes(); err != nil {
				return err
			}
			r.exclAt = time.Now()
		}
		if !r.primed {
			r.seedFromProject(ctx)
		}
		if err := r.forgetEditedDuringScan(ctx); err != nil {
			return err
		}
		if _, err := r.git(ctx, nil, "add", "-A", "--ignore-errors", "."); err != nil {
			return err
		}
		r.primed = true
		return nil
	}
	if len(dirty) == 0 {
		return nil
	}
	// Paths that exist are added; paths gone (deleted, or a temporary file already renamed away) are dropped from
	// the index, where they may or may not be: add -A refuses a path that matches nothing.
	var present, gone []string
	for p := range dirty {
		fi, err := r.fsys.Lstat(filepath.FromSlash(p))
		switch {
		case err != nil:
			gone = append(gone, p)
		case fi.Mode().IsRegular() && fi.Size() > MaxFileSize:
			gone = append(gone, p) // too large to record: keep an older copy out of new snapshots
		default:
			present = append(present, p)
		}
	}
	sort.Strings(present)
	sort.Strings(gone)
	if len(present) > 0 {
		_, err := r.git(ctx, []byte(strings.Join(present, "\x00")), "add", "-A", "--ignore-errors", "--pathspec-from-file=-", "--pathspec-file-nul")
		// Naming an ignored path makes add exit 1 after staging the others; being ignored is the right outcome.
		if err != nil && !strings.Contains(err.Error(), "ignored by one of your") {
			return err
		}
	}
	if len(gone) > 0 {
		if _, err := r.git(ctx, []byte(strings.Join(gone, "\x00")), "rm", "-r", "-q", "--cached", "--ignore-unmatch", "--pathspec-from-file=-", "--pathspec-file-nul"); err != nil {
			return err
		}
	}
	return nil
}

// DetachBorrowed lets this repository copy the objects it borrows from the project (see seedFromProject) in the
// background, after the snapshot that needs them. Only a process that lives on should: a CLI call that exits at
// once would start the copy each time and never finish it. Stop ends it.
func (r *Repo) DetachBorrowed() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.detachOK = true
}

// startDetach copies the borrowed objects in the background (see detach). r.mu is held.
func (r *Repo) startDetach() {
	ctx, stop := context.WithCancel(Background(context.Background()))
	done := make(chan struct{})
	r.detachStarted, r.detachStop, r.detached = true, stop, done
	go func() {
		defer close(done)
		if r.detach(ctx) != nil {
			r.mu.Lock()
			r.detachStarted = false // try again after the next snapshot
			r.mu.Unlock()
		}
	}()
}

// Stop ends background work (the copy of borrowed objects, which the next long-lived process resumes) and waits,
// and ends the object reader derived snapshots use.
func (r *Repo) Stop() {
	r.bgOnce.Do(r.initBackground)
	r.bgCancel()
	r.bg.Wait()
	r.mu.Lock()
	stop, done := r.detachStop, r.detached
	if r.objs != nil {
		r.objs.close()
	}
	r.mu.Unlock()
	if stop != nil {
		stop()
		<-done
	}
}

// waitDetached waits for a background copy of borrowed objects to finish (tests).
func (r *Repo) waitDetached() {
	r.mu.Lock()
	done := r.detached
	r.mu.Unlock()
	if done != nil {
		<-done
	}
}

// borrowing reports whether the shadow repository borrows objects from the project.
func (r *Repo) borrowing() bool {
	_, err := os.Stat(filepath.Join(r.dir, "objects", "info", "alternates"))
	return err == nil
}

// writeExcludes refreshes the shadow repository's exclude file: heavy folders, the project's own
// .git/info/exclude, and files over MaxFileSize found in the tree.
func (r *Repo) writeExcludes() error {
	var b strings.Builder
	b.WriteString("# written by Rooted\n")
	for _, h := range heavy {
		b.WriteString(h + "\n")
	}
	// The project's own excludes, read through its root and only when a plain file (never through a link).
	if fi, err := r.fsys.Lstat(filepath.Join(".git", "info", "exclude")); err == nil && fi.Mode().IsRegular() {
		if own, err := files.ReadRegular(r.fsys, "snapshot", filepath.Join(".git", "info", "exclude")); err == nil {
			b.Write(own)
			b.WriteByte('\n')
		}
	}
	for _, big := range bigFiles(r.fsys) {
		b.WriteString("/" + escapeGlob(big) + "\n")
	}
	return os.WriteFile(filepath.Join(r.dir, "info", "exclude"), []byte(b.String()), 0o600)
}

// loadLast reads the newest snapshot, to skip recording an unchanged state after a restart.
func (r *Repo) loadLast(ctx context.Context) {
	list, err := r.list(ctx, 0)
	if err != nil {
		return
	}
	i := slices.IndexFunc(list, func(s Snapshot) bool { return s.Paths == nil }) // a partial one is not a state
	if i < 0 {
		return
	}
	r.last = list[i]
	if out, err := r.git(ctx, nil, "rev-parse", list[i].ID+"^{tree}"); err == nil {
		r.lastTre = strings.TrimSpace(string(out))
	}
}

// List returns the snapshots, newest first, at most limit (all when 0).
func (r *Repo) List(ctx context.Context, limit int) ([]Snapshot, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.list(ctx, limit)
}

func (r *Repo) list(ctx context.Context, limit int) ([]Snapshot, error) {
	args := []string{"for-each-ref", "--sort=-refname", "--format=%(objectname)%00%(creatordate:unix)%00%(contents:subject)%00%(contents:body)%00%00", "refs/snapshots/"}
	if limit > 0 {
		args = append(args, "--count="+strconv.Itoa(limit))
	}
	out, err := r.git(ctx, nil, args...)
	if err != nil {
		return nil, err
	}
	var list []Snapshot
	for _, rec := range strings.Split(string(out), "\x00\x00") {
		rec = strings.TrimLeft(rec, "\n")
		f := strings.Split(rec, "\x00")
		if len(f) < 4 {
			continue
		}
		sec, _ := strconv.ParseInt(f[1], 10, 64)
		s := Snapshot{ID: f[0], Time: time.Unix(sec, 0).UTC(), Reason: f[2]}
		for _, line := range strings.Split(f[3], "\n") {
			if n, ok := strings.CutPrefix(line, "Files: "); ok {
				s.Files, _ = strconv.Atoi(strings.TrimSpace(n))
			}
			if ps, ok := strings.CutPrefix(line, "Paths: "); ok {
				json.Unmarshal([]byte(ps), &s.Paths)
			}
		}
		list = append(list, s)
	}
	return list, nil
}

// resolve turns a full or abbreviated id into a snapshot's commit id.
func (r *Repo) resolve(ctx context.Context, id string) (string, error) {
	if len(id) < 4 || strings.Trim(id, "0123456789abcdef") != "" {
		return "", fmt.Errorf("%w: %q is not a snapshot id", ErrUnknown, id)
	}
	out, err := r.git(ctx, nil, "rev-parse", "--verify", "--quiet", id+"^{commit}")
	if err != nil {
		return "", fmt.Errorf("%w: %s", ErrUnknown, id)
	}
	full := strings.TrimSpace(string(out))
	// Only our snapshots: a commit reachable from refs/snapshots.
	refs, err := r.git(ctx, nil, "for-each-ref", "--points-at="+full, "refs/snapshots/")
	if err != nil || len(bytes.TrimSpace(refs)) == 0 {
		return "", fmt.Errorf("%w: %s", ErrUnknown, id)
	}
	return full, nil
}

// Diff returns a unified diff from the snapshot to the files as they are now (optionally of one path).
func (r *Repo) Diff(ctx context.Context, id, path string) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	full, err := r.resolve(ctx, id)
	if err != nil {
		return "", err
	}
	only, err := r.recorded(ctx, full)
	if err != nil {
		return "", err
	}
	// The present as a tree (new files included), without recording a snapshot.
	tree, _, err := r.presentTree(ctx)
	if err != nil {
		return "", err
	}
	args := []string{"diff", "--no-color", "--no-ext-diff", full, tree}
	switch {
	case only != nil:
		// A partial snapshot knows nothing of other paths.
		if only = within(only, path); len(only) == 0 {
			return "", nil
		}
		args = append(append(args, "--"), only...)
	case path != "":
		args = append(args, "--", path)
	}
	out, err := r.git(ctx, nil, args...)
	return string(out), err
}

// RestoreResult says what a restore did.
type RestoreResult struct {
	Restored string   `json:"restored"` // the snapshot put back
	Backup   string   `json:"backup"`   // the snapshot of the state before, to undo the restore
	Written  []string `json:"written"`
	Removed  []string `json:"removed"`
}

// Restore puts the files of snapshot id back: all of them, or those under paths. Files created since (under the
// paths restored) are removed. The state before is recorded first, so a restore can be undone.
func (r *Repo) Restore(ctx context.Context, id string, paths []string) (RestoreResult, error) {
	full, err := func() (string, error) {
		r.mu.Lock()
		defer r.mu.Unlock()
		return r.resolve(ctx, id)
	}()
	if err != nil {
		return RestoreResult{}, err
	}
	only, err := r.recorded(ctx, full)
	if err != nil {
		return RestoreResult{}, err
	}
	if only != nil {
		// A partial snapshot restores its own paths (those under paths), and leaves every other file alone.
		var keep []string
		asked := paths
		if len(asked) == 0 {
			asked = []string{"."}
		}
		for _, p := range asked {
			keep = append(keep, within(only, p)...)
		}
		slices.Sort(keep)
		keep = slices.Compact(keep)
		if len(keep) == 0 {
			return RestoreResult{Restored: full, Written: []string{}, Removed: []string{}}, nil
		}
		paths = keep
	}
	before, err := r.Take(ctx, "Backup before restore of "+full[:12])
	if err != nil {
		return RestoreResult{}, fmt.Errorf("recording the state before the restore: %w", err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	spec := []string{"--"}
	if len(paths) == 0 {
		spec = append(spec, ".")
	} else {
		spec = append(spec, paths...)
	}
	// What differs between now (the backup just taken) and the snapshot, file by file.
	out, err := r.git(ctx, nil, append([]string{"diff-tree", "-r", "--no-renames", "--name-status", "-z", before.ID, full}, spec...)...)
	if err != nil {
		return RestoreResult{}, err
	}
	res := RestoreResult{Restored: full, Backup: before.ID, Written: []string{}, Removed: []string{}}
	f := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	for i := 0; i+1 < len(f); i += 2 {
		status, p := f[i], f[i+1]
		if status == "A" || status == "M" || status == "T" {
			res.Written = append(res.Written, p)
		} else if status == "D" {
			res.Removed = append(res.Removed, p)
		}
	}
	if len(res.Written) > 0 {
		// Checkout writes the snapshot's bytes and modes (filters are off for this repository).
		if _, err := r.git(ctx, []byte(strings.Join(res.Written, "\x00")), "checkout", full, "--pathspec-from-file=-", "--pathspec-file-nul"); err != nil {
			return res, err
		}
	}
	for _, p := range res.Removed {
		if err := removeInside(r.fsys, p); err != nil {
			return res, err
		}
	}
	// The index now matches neither exactly; the next snapshot re-scans.
	r.primed = false
	r.appendLog(LogEntry{Time: time.Now().UTC(), Action: "restore", ID: full, Paths: paths, Backup: before.ID, Files: len(res.Written) + len(res.Removed)})
	return res, nil
}

// Log returns the backup log, newest first, at most limit entries (all when 0).
func (r *Repo) Log(limit int) ([]LogEntry, error) {
	f, err := os.Open(filepath.Join(r.dir, "rooted-log.jsonl"))
	if errors.Is(err, os.ErrNotExist) {
		return []LogEntry{}, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var all []LogEntry
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		var e LogEntry
		if json.Unmarshal(sc.Bytes(), &e) == nil {
			all = append(all, e)
		}
	}
	for i, j := 0, len(all)-1; i < j; i, j = i+1, j-1 {
		all[i], all[j] = all[j], all[i]
	}
	if limit > 0 && len(all) > limit {
		all = all[:limit]
	}
	return all, sc.Err()
}

func (r *Repo) appendLog(e LogEntry) {
	b, err := json.Marshal(e)
	if err != nil {
		return
	}
	f, err := os.OpenFile(filepath.Join(r.dir, "rooted-log.jsonl"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	f.Write(append(b, '\n'))
}

// retain drops snapshots beyond Keep or older than MaxAge (the newest is always kept) and collects garbage.
func (r *Repo) retain(ctx context.Context) {
	list, err := r.list(ctx, 0)
	if err != nil || len(list) <= 1 {
		return
	}
	out, err := r.git(ctx, nil, "for-each-ref", "--sort=-refname", "--format=%(refname)", "refs/snapshots/")
	if err != nil {
		return
	}
	refs := strings.Fields(string(out))
	var del strings.Builder
	cutoff := time.Now().Add(-r.opt.MaxAge)
	for i := 1; i < len(list) && i < len(refs); i++ {
		if i >= r.opt.Keep || list[i].Time.Before(cutoff) {
			del.WriteString("delete " + refs[i] + "\n")
		}
	}
	if del.Len() == 0 {
		return
	}
	if _, err := r.git(ctx, []byte(del.String()), "update-ref", "--stdin"); err != nil {
		return
	}
	_, _ = r.git(ctx, nil, "gc", "--quiet", "--prune=now")
}

// WithDefaults fills in the zero fields: 500 snapshots, 30 days.
func (o Options) WithDefaults() Options {
	if o.Keep <= 0 {
		o.Keep = 500
	}
	if o.MaxAge <= 0 {
		o.MaxAge = 30 * 24 * time.Hour
	}
	return o
}

// SetOptions changes the retention policy (zero fields: the defaults); it applies from the next retention run.
func (r *Repo) SetOptions(opt Options) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.opt = opt.WithDefaults()
}

// Retain applies the retention policy now (it also runs every 50 snapshots).
func (r *Repo) Retain(ctx context.Context) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.retain(ctx)
}
