package snapshot

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// An edit while the first full snapshot is still running does not wait for it: it records just the paths it
// touches, and that snapshot restores and diffs only them.
func TestPartialSnapshotWhileTheFirstScanRuns(t *testing.T) {
	t.Parallel()
	p := newProject(t, map[string]string{"a.txt": "a before\n", "dir/b.txt": "b before\n", "other.txt": "other\n"})
	os.Symlink("a.txt", p.path("link"))
	// The first snapshot holds the repository (as the background one does when a project opens).
	p.repo.mu.Lock()
	p.repo.mu.SetScanning(true)
	snap, err := p.repo.TakeFor(ctx, "Backup before file mod", []string{"a.txt", "dir/b.txt", "new.txt", "link", ".git/config", "a.txt"})
	p.repo.mu.SetScanning(false)
	p.repo.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a.txt", "dir/b.txt", "new.txt", "link"}; !slices.Equal(snap.Paths, want) || snap.Files != 4 {
		t.Fatalf("partial snapshot recorded %v (%d files), want %v", snap.Paths, snap.Files, want)
	}
	// The edits, and changes elsewhere the partial snapshot knows nothing of.
	p.write("a.txt", "a after\n")
	p.write("dir/b.txt", "b after\n")
	p.write("new.txt", "created\n")
	os.Remove(p.path("link"))
	p.write("other.txt", "other changed\n")
	p.write("untouched-new.txt", "x\n")

	list, err := p.repo.List(ctx, 0)
	if err != nil || len(list) != 1 || !slices.Equal(list[0].Paths, snap.Paths) {
		t.Fatalf("listed: %+v %v", list, err)
	}
	d, err := p.repo.Diff(ctx, snap.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"-a before", "+a after", "-b before", "+created", "deleted file mode 120000"} {
		if !strings.Contains(d, want) {
			t.Errorf("diff lacks %q:\n%s", want, d)
		}
	}
	if strings.Contains(d, "other") || strings.Contains(d, "untouched-new") {
		t.Errorf("the diff of a partial snapshot shows paths it never recorded:\n%s", d)
	}
	if d, _ := p.repo.Diff(ctx, snap.ID, "other.txt"); d != "" {
		t.Errorf("diff of a path the snapshot did not record: %q", d)
	}

	// Restoring one path of it.
	res, err := p.repo.Restore(ctx, snap.ID, []string{"dir"})
	if err != nil || !slices.Equal(res.Written, []string{"dir/b.txt"}) || len(res.Removed) != 0 {
		t.Fatalf("restore of dir: %+v %v", res, err)
	}
	// Restoring all of it: its paths come back as they were, the file created since goes, the rest stays.
	res, err = p.repo.Restore(ctx, snap.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Written, []string{"a.txt", "link"}) || !slices.Equal(res.Removed, []string{"new.txt"}) {
		t.Errorf("restore wrote %v and removed %v", res.Written, res.Removed)
	}
	want := map[string]string{"a.txt": "a before\n", "dir/b.txt": "b before\n", "other.txt": "other changed\n", "untouched-new.txt": "x\n"}
	for name, content := range want {
		if b, _ := os.ReadFile(p.path(name)); string(b) != content {
			t.Errorf("%s after restore: %q, want %q", name, b, content)
		}
	}
	if target, err := os.Readlink(p.path("link")); err != nil || target != "a.txt" {
		t.Errorf("link after restore: %q %v", target, err)
	}
	if _, err := os.Stat(p.path("new.txt")); !os.IsNotExist(err) {
		t.Errorf("new.txt, created after the partial snapshot, survived its restore: %v", err)
	}

	// A process that opens the repository later starts from the last full snapshot, never a partial one.
	again, err := Open(p.root, p.dir, p.repo.dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	again.mu.Lock()
	again.loadLast(ctx)
	last := again.last
	again.mu.Unlock()
	if last.Paths != nil {
		t.Errorf("a partial snapshot became the base of the next one: %+v", last)
	}
}

// Whether an edit lands during the first snapshot or after it, the snapshot it gets restores the file's content
// before the edit.
func TestEditDuringTheFirstSnapshotIsRecoverable(t *testing.T) {
	t.Parallel()
	files := map[string]string{}
	for i := range 2000 {
		files[fmt.Sprintf("d%d/f%d.txt", i%40, i)] = fmt.Sprintf("file %d\n", i)
	}
	p := newProject(t, files)
	var wg sync.WaitGroup
	wg.Go(func() {
		if _, err := p.repo.Take(ctx, "Project opened"); err != nil {
			t.Error(err)
		}
	})
	snaps := map[string]Snapshot{}
	for i := range 5 {
		name := fmt.Sprintf("d%d/f%d.txt", i, i)
		s, err := p.repo.TakeFor(ctx, "Backup before file mod: "+name, []string{name})
		if err != nil {
			t.Fatal(err)
		}
		snaps[name] = s
		p.write(name, "edited\n")
	}
	wg.Wait()
	for name, s := range snaps {
		if _, err := p.repo.Restore(ctx, s.ID, []string{name}); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(p.path(name)); string(b) != files[name] {
			t.Errorf("%s restored from %s (partial: %v): %q, want %q", name, s.ID[:12], s.Paths != nil, b, files[name])
		}
	}
}

// The first snapshot of a large project waits: an edit meanwhile is recorded at once as a partial snapshot, and a
// command's full backup ends the pause instead of waiting it out.
func TestFirstSnapshotPause(t *testing.T) {
	t.Parallel()
	p := newProject(t, map[string]string{"a.txt": "a before\n", "b.txt": "b\n"})
	first := make(chan error, 1)
	var firstSnap Snapshot
	go func() {
		var err error
		firstSnap, err = p.repo.TakeAfter(ctx, time.Hour, "Project opened")
		first <- err
	}()
	for !p.repo.mu.Scanning() {
		time.Sleep(time.Millisecond)
	}
	edit, err := p.repo.TakeFor(ctx, "Backup before file mod", []string{"a.txt"})
	if err != nil || !slices.Equal(edit.Paths, []string{"a.txt"}) {
		t.Fatalf("an edit during the pause: %+v %v, want a partial snapshot of a.txt", edit, err)
	}
	p.write("a.txt", "a after\n")
	type result struct {
		snap Snapshot
		err  error
	}
	backup := make(chan result, 1)
	go func() {
		s, err := p.repo.TakeFor(ctx, "Backup before command", nil)
		backup <- result{s, err}
	}()
	var cmd Snapshot
	select {
	case r := <-backup:
		if r.err != nil || r.snap.Paths != nil {
			t.Fatalf("a command's backup during the pause: %+v %v", r.snap, r.err)
		}
		cmd = r.snap
	case <-time.After(time.Minute):
		t.Fatal("a command's backup waited for the pause to run out")
	}
	if err := <-first; err != nil || firstSnap.Paths != nil || firstSnap.Files != 2 {
		t.Fatalf("the first snapshot, woken: %+v %v", firstSnap, err)
	}
	if p.repo.mu.Scanning() {
		t.Error("still scanning after the first snapshot")
	}
	// The first snapshot scanned after the edit, yet it holds the project as it was opened: a.txt before the edit
	// (as the partial snapshot does), the other files as they are. The command's backup holds the edit.
	if d, _ := p.repo.Diff(ctx, edit.ID, "a.txt"); !strings.Contains(d, "-a before") {
		t.Errorf("the partial snapshot lost a.txt's text before the edit:\n%s", d)
	}
	if d, _ := p.repo.Diff(ctx, firstSnap.ID, ""); !strings.Contains(d, "-a before") || !strings.Contains(d, "+a after") || strings.Contains(d, "b.txt") {
		t.Errorf("Project opened holds the edit made after it began:\n%s", d)
	}
	if d, _ := p.repo.Diff(ctx, cmd.ID, ""); d != "" {
		t.Errorf("the command's backup is not the project as it is now:\n%s", d)
	}

	// Stopping the project during the pause ends it without a snapshot.
	q := newProject(t, map[string]string{"c.txt": "c\n"})
	cctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { _, err := q.repo.TakeAfter(cctx, time.Hour, "Project opened"); done <- err }()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled during the pause: %v", err)
	}
}

// An edit during the first snapshot may land after the scan staged the file and leave git's stat data as it was
// (same size, within the file's timestamp tick). The next snapshot must still read the file again, or a restore
// of the edit's partial snapshot finds nothing to undo. git is told here to compare only size and mtime seconds,
// and not ctime, so that the lost stat change is certain rather than a matter of timing.
func TestEditDuringTheScanIsReadAgain(t *testing.T) {
	t.Parallel()
	p := newProject(t, map[string]string{"a.txt": "before\n", "b.txt": "b\n"})
	for _, kv := range [][2]string{{"core.checkStat", "minimal"}, {"core.trustCtime", "false"}} {
		if out, err := exec.Command("git", "--git-dir", p.repo.dir, "config", kv[0], kv[1]).CombinedOutput(); err != nil {
			t.Fatalf("git config: %v %s", err, out)
		}
	}
	// Written an hour ago, as far as its mtime tells: not "racily clean" to git, whose stat data it then trusts.
	old := time.Now().Add(-time.Hour)
	os.Chtimes(p.path("a.txt"), old, old)
	// The scan, holding the repository, stages a.txt; the edit's partial snapshot comes meanwhile.
	p.repo.mu.Lock()
	p.repo.mu.SetScanning(true)
	if err := p.repo.stage(ctx, nil); err != nil {
		t.Fatal(err)
	}
	edit, err := p.repo.TakeFor(ctx, "Backup before file mod", []string{"a.txt"})
	if err != nil || edit.Paths == nil {
		t.Fatalf("partial snapshot: %+v %v", edit, err)
	}
	p.write("a.txt", "edited\n")
	os.Chtimes(p.path("a.txt"), old, old)
	tree, files, err := p.repo.presentTree(ctx)
	if err == nil {
		_, err = p.repo.record(ctx, tree, "", "Project opened", files)
	}
	p.repo.mu.SetScanning(false)
	p.repo.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.repo.Restore(ctx, edit.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p.path("a.txt")); string(b) != "before\n" || !slices.Equal(res.Written, []string{"a.txt"}) {
		t.Errorf("restore of the edit: a.txt is %q, wrote %v", b, res.Written)
	}
}

// An edit through a link out of the project, made while the first snapshot runs, is not the snapshot's to refuse:
// its backup records the paths inside and passes over the escape, and the write itself answers outside_root.
func TestPartialSnapshotPassesOverAnEscape(t *testing.T) {
	t.Parallel()
	p := newProject(t, map[string]string{"a.txt": "a\n"})
	outside := t.TempDir()
	os.Symlink(outside, p.path("out"))
	p.repo.mu.Lock()
	p.repo.mu.SetScanning(true)
	snap, err := p.repo.TakeFor(ctx, "Backup before file mod", []string{"out/zz.txt", "a.txt"})
	only, err2 := p.repo.TakeFor(ctx, "Backup before file mod", []string{"out/zz.txt"})
	p.repo.mu.SetScanning(false)
	p.repo.mu.Unlock()
	if err != nil || err2 != nil {
		t.Fatalf("a backup failed over a path that leaves the project: %v, %v", err, err2)
	}
	if !slices.Equal(snap.Paths, []string{"a.txt"}) {
		t.Errorf("recorded %v, want just a.txt", snap.Paths)
	}
	if only.ID != "" {
		t.Errorf("a snapshot of nothing was recorded: %+v", only)
	}
}
