package snapshot

import (
	"context"
	"strings"
	"time"
)

// Retention: snapshots beyond a count or an age are dropped, and the objects only they held collected.

// Options tune retention.
type Options struct {
	// Keep is how many snapshots are kept at most (default 500); MaxAge how old one may get (default 30 days).
	Keep   int
	MaxAge time.Duration
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
	defer r.release()
	r.retain(ctx)
}

// pruneGrace is how old an unreferenced object must be before retention deletes it: a partial snapshot of another
// process writes its objects before its ref (and renews the time of those it finds already there).
const pruneGrace = "1.hour.ago"

// retain drops snapshots beyond Keep or older than MaxAge (the newest is always kept) and collects garbage. r.mu
// is held; it runs only when the repository lock can be had at once.
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
	_, _ = r.git(ctx, nil, "gc", "--quiet", "--prune="+pruneGrace)
}
