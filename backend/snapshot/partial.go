package snapshot

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/rooted-dev/rooted/backend/snapshot/gitobj"
)

// Partial snapshots. The first snapshot of a big project scans every file (seconds on 100k files); it runs in
// the background when the project opens. An edit that comes meanwhile need not wait for it: what the edit can
// lose is the previous content of the paths it touches, so those alone are recorded, in a tree that holds just
// them, and the commit says so ("Paths:" in its message). Restoring or diffing such a snapshot touches only its
// paths; one that did not exist is removed on restore, as it was created since.

// takePartial records paths as they are now. It runs beside the full scan, not under r.mu: it has its own object
// writer (loose objects are written under unique temporary names and renamed, so two writers agree) and never
// reads or changes the state the scan owns.
func (r *Repo) takePartial(reason string, paths []string) (Snapshot, error) {
	r.partial.Lock()
	defer r.partial.Unlock()
	o := gitobj.New(r.dir)
	defer o.Close()
	root := &editNode{}
	before := time.Now()
	var kept []string
	for _, p := range paths {
		p = path.Clean(p)
		parts := strings.Split(p, "/")
		if p == "." || parts[0] == ".." || parts[0] == ".git" || slices.Contains(kept, p) {
			continue
		}
		c, err := readChange(r.fsys, o, p)
		if errors.Is(err, errDeriveFallback) {
			continue // a folder: the tools that take partial snapshots change files
		}
		if isEscape(err) {
			continue // a link out of the project: nothing of the project is there, and the change will be refused
		}
		if err != nil {
			return Snapshot{}, err
		}
		kept = append(kept, p)
		if !c.gone {
			root.at(parts).leaf = c
		}
		if _, ok := r.opened[p]; !ok {
			if r.opened == nil {
				r.opened = map[string]openedAs{}
			}
			r.opened[p] = openedAs{c, before}
		}
	}
	if len(kept) == 0 {
		return Snapshot{}, nil
	}
	tree, err := writeTree(o, root)
	if err != nil {
		return Snapshot{}, err
	}
	list, _ := json.Marshal(kept)
	now := time.Now().UTC()
	msg := fmt.Sprintf("%s\n\nFiles: %d\nPaths: %s\n", reason, len(kept), list)
	id, err := o.WriteCommit(tree, msg, now.Unix())
	if err != nil {
		return Snapshot{}, err
	}
	if err := r.updateRef(snapshotRef(now), id); err != nil {
		return Snapshot{}, err
	}
	r.appendLog(LogEntry{Time: now, Action: "backup", ID: id, Reason: reason + " (these paths only: the first snapshot was still running)", Files: len(kept), Paths: kept})
	if r.rehash == nil {
		r.rehash = map[string]bool{}
	}
	for _, p := range kept {
		r.rehash[p] = true
	}
	return Snapshot{ID: id, Time: now, Reason: reason, Files: len(kept), Paths: kept}, nil
}

// openedAs is what a path was before its first edit during a scan, and when that was.
type openedAs struct {
	was *change
	at  time.Time
}

// openedTree is tree, as a scan that began at start found the project, with each path edited since start (a
// partial snapshot recorded it) as it was before its first edit: the snapshot a scan takes says what the project
// was when the scan began (the first snapshot's "Project opened"), not what an edit during it made. Entries from
// before start, and every entry once read, are dropped. When nothing was edited, or the tree cannot be rewritten
// (a nested repository's pointer, which only a scan reads), it is tree. r.mu is held.
func (r *Repo) openedTree(tree string, start time.Time) string {
	r.partial.Lock()
	opened := r.opened
	r.opened = nil
	r.partial.Unlock()
	root := &editNode{}
	n := 0
	for p, o := range opened {
		if !o.at.Before(start) {
			root.at(strings.Split(p, "/")).leaf = o.was
			n++
		}
	}
	sha, err := gitobj.Hex(tree)
	if n == 0 || err != nil {
		return tree
	}
	d := &deriver{fsys: r.fsys, objs: r.objs}
	out, empty, err := d.apply(sha, true, root)
	if err != nil || empty {
		if err != nil {
			slog.Warn("snapshot: the paths edited during the scan are recorded as edited", "root", r.root, "err", err)
		}
		return tree
	}
	return hex.EncodeToString(out[:])
}

// writeTree writes the tree that holds just n's files, and returns its name (the empty tree when none).
func writeTree(o *gitobj.Store, n *editNode) (string, error) {
	var write func(n *editNode) ([20]byte, error)
	write = func(n *editNode) ([20]byte, error) {
		var es []gitobj.Entry
		for name, child := range n.children {
			if child.leaf != nil && len(child.children) == 0 {
				es = append(es, gitobj.Entry{Mode: child.leaf.mode, Name: name, SHA: child.leaf.sha})
				continue
			}
			sub, err := write(child)
			if err != nil {
				return sub, err
			}
			es = append(es, gitobj.Entry{Mode: "40000", Name: name, SHA: sub})
		}
		slices.SortFunc(es, gitobj.TreeOrder)
		return o.WriteTree(es)
	}
	sha, err := write(n)
	return hex.EncodeToString(sha[:]), err
}

// recorded returns the paths a partial snapshot recorded, or nil for a full one. r.mu is held.
func (r *Repo) recorded(full string) ([]string, error) {
	sha, err := gitobj.Hex(full)
	if err != nil {
		return nil, err
	}
	out, err := r.objs.Read(sha, "commit")
	if err != nil {
		return nil, err
	}
	_, msg, _ := strings.Cut(string(out), "\n\n")
	for _, line := range strings.Split(msg, "\n") {
		if ps, ok := strings.CutPrefix(line, "Paths: "); ok {
			var paths []string
			if err := json.Unmarshal([]byte(ps), &paths); err != nil {
				return nil, fmt.Errorf("snapshot %s: unreadable paths: %w", full[:12], err)
			}
			return paths, nil
		}
	}
	return nil, nil
}

// within keeps the partial snapshot's paths that are p or below it ("" or ".": all of them).
func within(paths []string, p string) []string {
	p = path.Clean(p)
	if p == "." || p == "" {
		return paths
	}
	var out []string
	for _, q := range paths {
		if q == p || strings.HasPrefix(q, p+"/") {
			out = append(out, q)
		}
	}
	return out
}
