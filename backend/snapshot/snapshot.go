// Package snapshot records a project's state in a shadow git repository so that every change the agent makes can
// be undone. The shadow repository lives in the user's cache directory, keyed by the project's path, with its own
// index and refs: the project's own .git, index, branches and stash are never touched, and projects that are not
// git repositories work the same.
//
// Guarantees: a snapshot holds every file git would track (it respects .gitignore, .git/info/exclude and the
// global excludes), byte for byte and with its mode, except files over MaxFileSize and heavy generated folders;
// attribute filters and line-ending conversions are switched off for the shadow repository, whatever the project's
// .gitattributes say. Restores write exactly those bytes and modes back, each file atomically, and remove what
// was created since (for the paths restored); a restore is itself preceded by a snapshot. Every backup and
// restore is appended to a log.
//
// Crash safety: any Rooted process (the window, rooted mcp, a CLI call) may be killed at any moment, and the next
// one carries on: every file Rooted writes in the shadow repository is written whole and renamed into place, git's
// own lock files left by a killed git are recognised as stale and removed (lock.go says how), and a first
// snapshot that did not finish is taken again by the next process.
//
// Safety: Rooted's git never runs a program of the project's (package gitexec), and it never enters a repository
// nested in the project: such a folder (one holding a .git) is recorded as git records it, a pointer to its commit,
// without its files, and a restore leaves it alone.
//
// Not guaranteed: files skipped for size or as generated folders are neither saved nor touched by a restore;
// changes made during a snapshot may land in it or in the next one.
package snapshot

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/rooted-dev/rooted/backend/gitexec"
	"github.com/rooted-dev/rooted/backend/sched"
	"github.com/rooted-dev/rooted/backend/snapshot/gitobj"
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

// Repo is the shadow repository of one project. Its locks are described in lock.go.
type Repo struct {
	fsys *os.Root // the project, for what Rooted reads and removes itself
	root string   // the project's absolute path (git's work tree)
	dir  string   // the shadow repository

	mu         opLock        // one full operation at a time (lock.go)
	held       *os.File      // the repository lock, while a full operation holds it (lock.go); guarded by mu
	opt        Options       // guarded by mu
	yielder    sched.Yielder // background work yields to the searches of its workspace (yield.go)
	wake       chan struct{}
	wakeOnce   sync.Once   // wake ends TakeAfter's pause: a full snapshot is wanted now
	primed     bool        // the first full snapshot has been taken in this process
	track      bool        // a watcher reports every change (MarkDirty)
	healthy    func() bool // while tracking: whether the change reports can still be trusted
	last       Snapshot
	lastTre    string
	lastHist   string // the last snapshot's record of the project's refs (history.go)
	histKey    string // what the project's refs were when histCommit was made
	histCommit string
	since      int       // snapshots since the last retention run
	exclAt     time.Time // when the exclude file was last refreshed
	objs       *gitobj.Store
	baseTre    string // the project's tree but for the paths in dirty: what the next derivation starts from
	derived    int    // snapshots derived so far (tests)

	partial sync.Mutex      // partial snapshots, which run beside a full operation (partial.go)
	rehash  map[string]bool // guarded by partial: paths edited during a scan, which may have staged them first
	// opened is, for each path a partial snapshot recorded, what it was before its first such edit and when that
	// was (guarded by partial): the scan that ran meanwhile records it so (openedTree), as the project was when the
	// scan began, not as the edit left it.
	opened   map[string]openedAs
	scanFrom time.Time // guarded by mu: when the pause before a scan began (TakeAfter), else zero

	blockMu  sync.Mutex      // the named pipes git would block on (special.go)
	blocking map[string]bool // guarded by blockMu

	dirtyMu sync.Mutex      // the watcher's marks, which never wait for a snapshot
	dirty   map[string]bool // paths changed since the last snapshot, when tracking
	rescan  bool            // a change the watcher could not name path by path: the next snapshot scans

	// Borrowed objects (seed.go) are copied in the background by a long-lived process (DetachBorrowed).
	detachOK      bool // guarded by mu, as are the next three
	detachStarted bool
	detachStop    context.CancelFunc
	detached      chan struct{} // closed when the copy has finished

	bgOnce   sync.Once
	bg       sync.WaitGroup
	bgCtx    context.Context
	bgCancel context.CancelFunc
}

// ErrUnknown says a snapshot id names no snapshot.
var ErrUnknown = errors.New("no such snapshot")

// shadowConfig is the shadow repository's whole configuration: Rooted writes it, and git only reads it.
const shadowConfig = `[core]
	repositoryformatversion = 0
	bare = true
	filemode = true
	symlinks = true
	autocrlf = false
	safecrlf = false
	untrackedCache = true
	preloadIndex = true
	bigFileThreshold = 1m
	fsmonitor = false
	excludesFile = ` + os.DevNull + `
	hooksPath = ` + os.DevNull + `
[feature]
	manyFiles = true
[gc]
	auto = 0
[user]
	name = Rooted
	email = snapshots@rooted.invalid
[commit]
	gpgSign = false
`

// info/attributes outranks every .gitattributes in the tree: no filters, no line-ending conversion.
const shadowAttributes = "* -text -eol -crlf -filter -ident -working-tree-encoding\n"

// Open returns the shadow repository of the project opened as fsys at root (its absolute path), creating it under
// cacheDir. Rooted lays the repository out itself, each file written whole, so that a process killed while
// creating it leaves a repository the next one completes.
func Open(fsys *os.Root, root, cacheDir string, opt Options) (*Repo, error) {
	sum := sha256.Sum256([]byte(root))
	dir := filepath.Join(cacheDir, "rooted", "snapshots", filepath.Base(root)+"-"+hex.EncodeToString(sum[:8]))
	r := &Repo{fsys: fsys, root: root, dir: dir, opt: opt.WithDefaults(), dirty: map[string]bool{}}
	r.yielder = sched.Yielder{Lane: opt.Lane, Stop: &r.mu.wanted}
	for _, d := range []string{"objects/info", "objects/pack", "refs/heads", "refs/tags", "refs/snapshots", "info"} {
		if err := os.MkdirAll(filepath.Join(dir, filepath.FromSlash(d)), 0o700); err != nil {
			return nil, err
		}
	}
	for name, content := range map[string]string{"config": shadowConfig, "info/attributes": shadowAttributes, "HEAD": "ref: refs/heads/main\n"} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if b, err := os.ReadFile(p); err == nil && (string(b) == content || name == "HEAD") {
			continue
		}
		if err := writeWhole(p, []byte(content)); err != nil {
			return nil, err
		}
	}
	r.objs = gitobj.New(dir)
	return r, nil
}

// writeWhole replaces a file of the shadow repository: written to a temporary file beside it, synced, and renamed
// over it, so a crash leaves the old content or the new.
func writeWhole(p string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(p), ".rooted-tmp-")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), p)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
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

// readsWorkTree are the git commands Rooted runs that read the project's files: they run in the sandbox, reading
// the project and writing only the shadow repository. The rest touch only the shadow repository's objects, refs
// and index.
var readsWorkTree = map[string]bool{"add": true, "rm": true, "update-index": true, "fetch": true}

// objectsOnly are the git commands Rooted runs that never look at the work tree. Any other may (write-tree
// refreshes index entries, and reads the attributes of the files it hashes again), so it runs as runWorkTree says.
var objectsOnly = map[string]bool{"for-each-ref": true, "rev-parse": true, "cat-file": true, "update-ref": true, "ls-tree": true, "diff-tree": true, "gc": true}

// git runs git on the shadow repository with the project as its work tree. r.mu is held (for r.held).
func (r *Repo) git(ctx context.Context, stdin []byte, args ...string) ([]byte, error) {
	c := r.gitCmd(ctx, r.held, args[0])
	if objectsOnly[args[0]] {
		return c.Run(ctx, stdin, args...)
	}
	return r.runWorkTree(ctx, c, stdin, args...)
}

// gitCmd is the hardened git for the shadow repository; held, when not nil, is the repository lock, which git
// holds too for as long as it runs.
func (r *Repo) gitCmd(ctx context.Context, held *os.File, command string) gitexec.Cmd {
	c := gitexec.Cmd{
		Dir:         r.root,
		Env:         []string{"GIT_DIR=" + r.dir, "GIT_WORK_TREE=" + r.root, "GIT_INDEX_FILE=" + filepath.Join(r.dir, "index"), "GIT_OPTIONAL_LOCKS=0", "GIT_LITERAL_PATHSPECS=1"},
		Config:      [][2]string{{"core.excludesFile", os.DevNull}},
		Write:       []string{r.dir},
		ObjectsOnly: !readsWorkTree[command],
	}
	if held != nil && runtime.GOOS != "windows" { // Windows passes no descriptors; its lock ends with Rooted
		c.ExtraFiles = []*os.File{held}
	}
	if isBackground(ctx) {
		c.Started = lowerPriority
		c.WhileRunning = r.pauseWhileSearching
	}
	return c
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

// Stop ends background work (the copy of borrowed objects, which the next long-lived process resumes) and waits,
// and ends the object reader derived snapshots use.
func (r *Repo) Stop() {
	r.bgOnce.Do(r.initBackground)
	r.bgCancel()
	r.bg.Wait()
	r.mu.Lock()
	stop, done := r.detachStop, r.detached
	r.objs.Close()
	r.mu.Unlock()
	if stop != nil {
		stop()
		<-done
	}
}
