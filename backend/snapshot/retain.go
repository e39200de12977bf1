package snapshot

import (
	"context"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"github.com/rooted-dev/rooted/backend/sched"
)

// Retention: snapshots beyond a count or an age are dropped, and the objects only they held collected; and the
// shadow repository has a byte budget: a command can write as much as it likes into the project, and every
// snapshot keeps what it wrote, so past the budget the oldest snapshots go first (the newest always stays).

// Options tune retention.
type Options struct {
	// Keep is how many snapshots are kept at most (default 500); MaxAge how old one may get (default 30 days).
	Keep   int
	MaxAge time.Duration
	// MaxBytes is the shadow repository's byte budget (default 4 GiB), measured on its objects.
	MaxBytes int64
	// Lane is the project's workspace's share of the process's scheduler: the first snapshot and the copy of
	// borrowed objects (background work) yield to the workspace's searches, and to nobody else's. Nil: a lane of
	// its own, in which nothing yields.
	Lane *sched.Lane
	// pruneAfter is git gc's --prune (pruneGrace; a test collects at once).
	pruneAfter string
}

// DefaultMaxBytes is the shadow repository's byte budget when none is set.
const DefaultMaxBytes = 4 << 30

// WithDefaults fills in the zero fields: 500 snapshots, 30 days, 4 GiB.
func (o Options) WithDefaults() Options {
	if o.Keep <= 0 {
		o.Keep = 500
	}
	if o.MaxAge <= 0 {
		o.MaxAge = 30 * 24 * time.Hour
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.pruneAfter == "" {
		o.pruneAfter = pruneGrace
	}
	return o
}

// objectBytes is the size of the shadow repository's objects, loose and packed (borrowed ones not counted).
func (r *Repo) objectBytes() int64 {
	var n int64
	filepath.WalkDir(filepath.Join(r.dir, "objects"), func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
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
	defer r.release()
	r.retain(ctx)
}

// pruneGrace is how old an unreferenced object must be before retention deletes it: a partial snapshot of another
// process writes its objects before its ref (and renews the time of those it finds already there). So the budget
// holds an hour late for what was written in the last hour.
const pruneGrace = "1.hour.ago"

// retain drops snapshots beyond Keep or older than MaxAge (the newest is always kept) and collects garbage; then,
// while the objects exceed MaxBytes, the older half of the snapshots left, and again. r.mu is held; it runs only
// when the repository lock can be had at once.
func (r *Repo) retain(ctx context.Context) {
	if r.hold(ctx, false) != nil {
		return // another process is busy with the repository: the next run will do
	}
	list, err := r.list(ctx, 0)
	if err != nil || len(list) <= 1 {
		return
	}
	out, err := r.git(ctx, nil, "for-each-ref", "--sort=-refname", "--format=%(refname)", "refs/snapshots/")
	if err != nil {
		return
	}
	refs := strings.Fields(string(out))
	n := min(len(list), len(refs)) // refs beyond the listed snapshots are left alone
	keep := n
	cutoff := time.Now().Add(-r.opt.MaxAge)
	for i := 1; i < n; i++ {
		if i >= r.opt.Keep || list[i].Time.Before(cutoff) {
			keep = i
			break
		}
	}
	for round := 0; ; round++ {
		if keep < n {
			var del strings.Builder
			for _, ref := range refs[keep:n] {
				del.WriteString("delete " + ref + "\n")
			}
			if _, err := r.git(ctx, []byte(del.String()), "update-ref", "--stdin"); err != nil {
				return
			}
			n = keep
			_, _ = r.git(ctx, nil, "gc", "--quiet", "--prune="+r.opt.pruneAfter)
		}
		if keep <= 1 || round >= 12 || r.objectBytes() <= r.opt.MaxBytes {
			return
		}
		keep = (keep + 1) / 2 // over the budget: the older half goes
	}
}

// overBudget reports, every tenth snapshot, whether the objects exceed the budget (measuring costs a walk of
// them); retention then runs at once rather than at the fiftieth.
func (r *Repo) overBudget() bool {
	return r.since%10 == 0 && r.objectBytes() > r.opt.MaxBytes
}
