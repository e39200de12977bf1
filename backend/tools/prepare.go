package tools

import (
	"context"
	"encoding/binary"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/rooted-dev/rooted/backend/sched"
	"github.com/rooted-dev/rooted/backend/session"
	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/snapshot"
)

// FirstSnapshot reports the first snapshot of a project just opened: State is "running", then "done" or "failed".
type FirstSnapshot struct {
	State    string
	Snapshot snapshot.Snapshot
	Err      error
	Elapsed  time.Duration
}

// Prepare readies a project just opened in a long-lived face (the window, the MCP server), the same way in both:
// the index and its watcher start with the project's search memory budget; snapshots follow the watcher's reports
// (so each later snapshot costs what changed); and the first snapshot is taken in the background, so the agent's
// first edit does not wait for it on a large tree (an edit made meanwhile records just its own paths). report, if
// not nil, hears how the first snapshot goes.
func (d Deps) Prepare(info session.Info, report func(FirstSnapshot)) {
	if d.Jobs != nil {
		// A session that opened another root leaves the jobs of the one it closed behind: they go with it. (A
		// workspace's session keeps its root, so its jobs end with the workspace instead.)
		d.Jobs.CloseRoot(info.Root)
	}
	t, err := d.Session.Resolve(info.Root)
	if err != nil || d.Indexes == nil {
		return
	}
	p := d.projectSettings(info.Root)
	d.Indexes.SetBudget(t.Root, int64(p.SearchMemoryMiB)<<20)
	d.Indexes.Source(t.Root, info.Root) // starts the index and its watcher
	if d.Snapshots == nil {
		return
	}
	repo, err := d.Snapshots.For(t.Root, info.Root)
	if err != nil {
		slog.Warn("snapshots unavailable", "root", info.Root, "err", err)
		return
	}
	repo.SetOptions(SnapshotOptions(p, d.Lane))
	root := t.Root
	if d.Indexes.Live(root) {
		repo.TrackWhile(func() bool { return d.Indexes.Live(root) })
	}
	if report == nil {
		report = func(FirstSnapshot) {}
	}
	pause := time.Duration(0)
	if trackedFiles(root) >= largeProject {
		pause = firstSnapshotPause
	}
	repo.InBackground(func(ctx context.Context) {
		start := time.Now() // Elapsed is from the opening: until then edits are recorded partially
		report(FirstSnapshot{State: "running"})
		snap, err := repo.TakeAfter(ctx, pause, "Project opened")
		if err != nil {
			report(FirstSnapshot{State: "failed", Err: err, Elapsed: time.Since(start)})
			return
		}
		report(FirstSnapshot{State: "done", Snapshot: snap, Elapsed: time.Since(start)})
	})
}

// A project of largeProject tracked files or more has its first snapshot wait firstSnapshotPause (or until a
// command needs one): the agent's first search of such a tree took 2.8 s sharing the machine with the snapshot's
// scan and 1.4 s alone (bench/monorepo.sh, 92k files, 2 cores). Edits meanwhile are recorded as they are during
// the scan. The pause is a guess at how long a first search of such a tree takes; it costs nothing but a later
// first snapshot.
const (
	largeProject       = 20_000
	firstSnapshotPause = 3 * time.Second
)

// trackedFiles is how many files the project's git index lists, from its header; 0 when there is none.
func trackedFiles(root *os.Root) int {
	f, err := root.Open(filepath.Join(".git", "index"))
	if err != nil {
		return 0
	}
	defer f.Close()
	var h [12]byte
	if _, err := io.ReadFull(f, h[:]); err != nil || string(h[:4]) != "DIRC" {
		return 0
	}
	return int(binary.BigEndian.Uint32(h[8:]))
}

// SnapshotOptions are a project's retention settings for its snapshots.
func SnapshotOptions(p settings.Project, lane *sched.Lane) snapshot.Options {
	return snapshot.Options{Keep: p.SnapshotKeep, MaxAge: time.Duration(p.SnapshotMaxAgeDays) * 24 * time.Hour, MaxBytes: int64(p.SnapshotMaxMiB) << 20, Lane: lane}
}
