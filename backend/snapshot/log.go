package snapshot

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The record of snapshots: the refs under refs/snapshots (one per snapshot, named by when it was taken), and the
// log of every backup and restore (rooted-log.jsonl, a line appended per entry: a process killed while appending
// leaves at most a broken last line, which reading skips).

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

// List returns the snapshots, newest first, at most limit (all when 0).
// While a full scan (the first snapshot) runs, it waits for it up to listWait, then answers with the snapshots
// recorded so far (partial ones among them) rather than wait longer.
func (r *Repo) List(ctx context.Context, limit int) ([]Snapshot, error) {
	if !r.mu.LockWithin(ctx, listWait) {
		return r.listWith(ctx, nil, limit)
	}
	defer r.mu.Unlock()
	return r.list(ctx, limit)
}

// listWait is how long List waits for a full scan in progress.
var listWait = 30 * time.Second

// list lists the snapshots; r.mu is held.
func (r *Repo) list(ctx context.Context, limit int) ([]Snapshot, error) {
	return r.listWith(ctx, r.held, limit)
}

// listWith lists the snapshots with git holding held (nil: without r.mu, and without the repository lock: it only
// reads refs, which are written whole).
func (r *Repo) listWith(ctx context.Context, held *os.File, limit int) ([]Snapshot, error) {
	args := []string{"for-each-ref", "--sort=-refname", "--format=%(objectname)%00%(creatordate:unix)%00%(contents:subject)%00%(contents:body)%00%00", "refs/snapshots/"}
	if limit > 0 {
		args = append(args, "--count="+strconv.Itoa(limit))
	}
	out, err := r.gitCmd(ctx, held, args[0]).Run(ctx, nil, args...)
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

// loadLast reads the newest snapshot, to skip recording an unchanged state after a restart. r.mu is held.
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
	if out, err := r.git(ctx, nil, "rev-parse", "--verify", "--quiet", list[i].ID+"^1"); err == nil {
		r.lastHist = strings.TrimSpace(string(out))
	}
}

// resolve turns a full or abbreviated id into a snapshot's commit id. r.mu is held.
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
	slices.Reverse(all)
	if limit > 0 && len(all) > limit {
		all = all[:limit]
	}
	return all, sc.Err()
}

// appendLog adds a line to the log, in one write: lines of several processes do not interleave.
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
	// A line cut short by a crash before this one would swallow it: start on a fresh line if need be.
	if fi, err := f.Stat(); err == nil && fi.Size() > 0 {
		last := make([]byte, 1)
		if rf, err := os.Open(f.Name()); err == nil {
			if _, err := rf.ReadAt(last, fi.Size()-1); err == nil && last[0] != '\n' {
				b = append([]byte{'\n'}, b...)
			}
			rf.Close()
		}
	}
	f.Write(append(b, '\n'))
}
