package snapshot

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/sched"
	"github.com/rooted-dev/rooted/backend/testtree"
)

var ctx = context.Background()

type project struct {
	t    *testing.T
	dir  string
	root *os.Root
	repo *Repo
	lane *sched.Lane // the project's workspace's share of the scheduler
}

func newProject(t *testing.T, files map[string]string) *project {
	t.Helper()
	dir := t.TempDir()
	p := &project{t: t, dir: dir}
	testtree.Write(t, dir, files)
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	p.root = r
	p.lane = testSched.Lane(dir)
	t.Cleanup(p.lane.Close)
	p.repo, err = Open(r, dir, t.TempDir(), Options{Lane: p.lane})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// testSched is the tests' scheduler, as one process holding several projects has one: each project gets a lane.
var testSched = sched.New()

func (p *project) path(rel string) string { return filepath.Join(p.dir, filepath.FromSlash(rel)) }

func (p *project) write(rel, content string) {
	p.t.Helper()
	os.MkdirAll(filepath.Dir(p.path(rel)), 0o755)
	if err := os.WriteFile(p.path(rel), []byte(content), 0o644); err != nil {
		p.t.Fatal(err)
	}
}

func (p *project) take(reason string) Snapshot {
	p.t.Helper()
	s, err := p.repo.Take(ctx, reason)
	if err != nil {
		p.t.Fatal(err)
	}
	return s
}

// state describes every file below the project except .git: path, mode and content hash.
func (p *project) state() map[string]string {
	p.t.Helper()
	out := map[string]string{}
	filepath.WalkDir(p.dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(p.dir, path)
		if d.IsDir() {
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		info, _ := os.Lstat(path)
		var sum [32]byte
		if info.Mode()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(path)
			sum = sha256.Sum256([]byte("link:" + target))
		} else {
			b, _ := os.ReadFile(path)
			sum = sha256.Sum256(b)
		}
		out[filepath.ToSlash(rel)] = info.Mode().String() + " " + string(sum[:4])
		return nil
	})
	return out
}

func TestRestoreIsByteExact(t *testing.T) {
	t.Parallel()
	p := newProject(t, map[string]string{
		".gitattributes": "* text=auto eol=lf\n*.txt filter=nonexistent\n", // filters and conversions must not apply
		"crlf.txt":       "one\r\ntwo\r\n",
		"bin.dat":        "\x00\x01\x02\xff",
		"src/main.go":    "package main\n",
		"script.sh":      "#!/bin/sh\necho hi\n",
		"keep/a.txt":     "a",
	})
	os.Chmod(p.path("script.sh"), 0o755)
	os.Symlink("src/main.go", p.path("link"))
	before := p.state()
	snap := p.take("before the agent")

	// Change everything a session could: edit, delete, create (in new dirs), chmod, retarget a link.
	p.write("crlf.txt", "changed\n")
	os.Remove(p.path("bin.dat"))
	p.write("new/deep/file.go", "package deep\n")
	os.Chmod(p.path("script.sh"), 0o644)
	os.Remove(p.path("link"))
	os.Symlink("keep/a.txt", p.path("link"))
	os.RemoveAll(p.path("keep"))

	res, err := p.repo.Restore(ctx, snap.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.state(); !mapsEqual(got, before) {
		t.Errorf("after restore:\n%v\nwant\n%v", got, before)
	}
	if _, err := os.Stat(p.path("new")); err == nil {
		t.Error("the directory created since the snapshot is still there")
	}
	if !slices.Contains(res.Removed, "new/deep/file.go") || !slices.Contains(res.Written, "bin.dat") || res.Backup == "" {
		t.Errorf("restore result: %+v", res)
	}
	// The restore was itself recorded: restoring its backup undoes it.
	if _, err := p.repo.Restore(ctx, res.Backup, nil); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p.path("new/deep/file.go")); string(b) != "package deep\n" {
		t.Errorf("undoing the restore: %q", b)
	}
}

func TestRestorePathsOnly(t *testing.T) {
	t.Parallel()
	p := newProject(t, map[string]string{"a.txt": "a1", "b.txt": "b1", "dir/c.txt": "c1"})
	snap := p.take("start")
	p.write("a.txt", "a2")
	p.write("b.txt", "b2")
	p.write("dir/new.txt", "n")
	p.write("dir/c.txt", "c2")
	if _, err := p.repo.Restore(ctx, snap.ID[:10], []string{"a.txt", "dir"}); err != nil {
		t.Fatal(err)
	}
	for rel, want := range map[string]string{"a.txt": "a1", "b.txt": "b2", "dir/c.txt": "c1"} {
		if b, _ := os.ReadFile(p.path(rel)); string(b) != want {
			t.Errorf("%s = %q, want %q", rel, b, want)
		}
	}
	if _, err := os.Stat(p.path("dir/new.txt")); err == nil {
		t.Error("a file created under a restored path survived")
	}
}

func TestWhatIsRecorded(t *testing.T) {
	t.Parallel()
	p := newProject(t, map[string]string{
		".gitignore":            "*.log\nbuild/\n",
		"main.go":               "x",
		"debug.log":             "ignored",
		"build/out":             "ignored",
		"node_modules/pkg/i.js": "heavy",
		"sub/node_modules/x.js": "heavy",
	})
	big := bytes.Repeat([]byte("x"), MaxFileSize+1)
	os.WriteFile(p.path("big.bin"), big, 0o644)
	snap := p.take("first")
	out, err := p.repo.git(ctx, nil, "ls-tree", "-r", "--name-only", snap.ID)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Fields(string(out))
	if !slices.Equal(got, []string{".gitignore", "main.go"}) {
		t.Errorf("recorded %v", got)
	}
	if snap.Files != 2 {
		t.Errorf("files in the first snapshot: %d", snap.Files)
	}
	// The same state again is the same snapshot; a change makes a new one counting what changed.
	if again := p.take("again"); again.ID != snap.ID {
		t.Errorf("an unchanged state made a new snapshot %s", again.ID)
	}
	p.write("main.go", "y")
	if next := p.take("edit"); next.ID == snap.ID || next.Files != 1 {
		t.Errorf("after one edit: %+v", next)
	}
}

func TestUsersGitIsUntouched(t *testing.T) {
	t.Parallel()
	p := newProject(t, map[string]string{"a.txt": "a", "b.txt": "b"})
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = p.dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_AUTHOR_NAME=u", "GIT_AUTHOR_EMAIL=u@u", "GIT_COMMITTER_NAME=u", "GIT_COMMITTER_EMAIL=u@u")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
		return string(out)
	}
	git("init", "-q", "-b", "main")
	git("add", "a.txt")
	git("commit", "-qm", "one")
	p.write("a.txt", "stashed")
	git("stash", "-q")
	p.write("b.txt", "staged")
	git("add", "b.txt")
	fingerprint := func() string {
		index, _ := os.ReadFile(p.path(".git/index"))
		sum := sha256.Sum256(index)
		return git("for-each-ref") + git("stash", "list") + git("status", "--porcelain") + string(sum[:])
	}
	before := fingerprint()
	s1 := p.take("one")
	p.write("c.txt", "new")
	p.take("two")
	p.repo.Diff(ctx, s1.ID, "")
	if _, err := p.repo.Restore(ctx, s1.ID, nil); err != nil {
		t.Fatal(err)
	}
	if after := fingerprint(); after != before {
		t.Errorf("the user's repository changed:\nbefore %q\nafter  %q", before, after)
	}
}

func TestDiff(t *testing.T) {
	t.Parallel()
	p := newProject(t, map[string]string{"a.txt": "one\n", "b.txt": "b\n"})
	snap := p.take("start")
	p.write("a.txt", "two\n")
	p.write("c.txt", "new\n")
	d, err := p.repo.Diff(ctx, snap.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"--- a/a.txt", "+++ b/a.txt", "-one", "+two", "+++ b/c.txt", "+new"} {
		if !strings.Contains(d, want) {
			t.Errorf("diff lacks %q:\n%s", want, d)
		}
	}
	d, _ = p.repo.Diff(ctx, snap.ID, "c.txt")
	if strings.Contains(d, "a.txt") || !strings.Contains(d, "c.txt") {
		t.Errorf("diff of one path:\n%s", d)
	}
	if _, err := p.repo.Diff(ctx, "deadbeef", ""); !errors.Is(err, ErrUnknown) {
		t.Errorf("unknown id: %v", err)
	}
	if _, err := p.repo.Diff(ctx, "HEAD; rm -rf /", ""); !errors.Is(err, ErrUnknown) {
		t.Errorf("not an id: %v", err)
	}
}

// With tracking, only the paths reported as changed are staged, and the snapshots equal full scans.
func TestTrackedSnapshotsEqualFullScans(t *testing.T) {
	t.Parallel()
	p := newProject(t, map[string]string{"a.txt": "a", "d/b.txt": "b"})
	p.repo.Track(true)
	p.take("prime")
	p.write("a.txt", "a2")
	os.Remove(p.path("d/b.txt"))
	p.write("d/c.txt", "c")
	os.MkdirAll(p.path("node_modules"), 0o755)
	p.write("node_modules/x.js", "heavy")
	// What a watcher reports: the changes, a temporary file already renamed away, an excluded path.
	for _, rel := range []string{"a.txt", "d/b.txt", "d/c.txt", ".a.txt.rooted-1234.tmp", "node_modules/x.js", "node_modules"} {
		p.repo.MarkDirty(rel)
	}
	tracked := p.take("tracked")
	r2, _ := Open(p.root, p.dir, t.TempDir(), Options{}) // a second repository, which scans the whole tree
	scanned, err := r2.Take(ctx, "scan")
	if err != nil {
		t.Fatal(err)
	}
	t1, _ := p.repo.git(ctx, nil, "rev-parse", tracked.ID+"^{tree}")
	t2, _ := r2.git(ctx, nil, "rev-parse", scanned.ID+"^{tree}")
	if string(t1) != string(t2) {
		t.Errorf("tracked tree %s differs from a full scan's %s", t1, t2)
	}
}

func TestRetentionAndLog(t *testing.T) {
	t.Parallel()
	p := newProject(t, map[string]string{"a.txt": "0"})
	p.repo.opt.Keep = 3
	var ids []string
	for i := range 5 {
		p.write("a.txt", strings.Repeat("x", i+1))
		ids = append(ids, p.take("edit").ID)
	}
	p.repo.Retain(ctx)
	list, err := p.repo.List(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 3 || list[0].ID != ids[4] || list[2].ID != ids[2] {
		t.Errorf("after retention: %+v", list)
	}
	if _, err := p.repo.Diff(ctx, ids[0], ""); !errors.Is(err, ErrUnknown) {
		t.Errorf("a dropped snapshot is still known: %v", err)
	}
	log, _ := p.repo.Log(0)
	if len(log) != 5 || log[0].Action != "backup" || log[0].ID != ids[4] {
		t.Errorf("log: %+v", log)
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// Restore never removes through a symlink, and the project's exclude file is read through its root and never
// through a link: a link swapped in for a folder or for .git/info/exclude reaches nothing.
func TestNothingThroughLinks(t *testing.T) {
	t.Parallel()
	p := newProject(t, map[string]string{"d/f.txt": "mine\n", "e/f.txt": "someone else's\n"})
	os.RemoveAll(p.path("d"))
	if err := os.Symlink("e", p.path("d")); err != nil {
		t.Fatal(err)
	}
	if err := removeInside(p.root, "d/f.txt"); err == nil {
		t.Error("removed d/f.txt through d, now a link to e")
	}
	if b, err := os.ReadFile(p.path("e/f.txt")); err != nil || string(b) != "someone else's\n" {
		t.Errorf("e/f.txt: %q %v", b, err)
	}

	outside := filepath.Join(t.TempDir(), "exclude")
	os.WriteFile(outside, []byte("secret-pattern-from-outside\n"), 0o644)
	os.MkdirAll(p.path(".git/info"), 0o755)
	if err := os.Symlink(outside, p.path(".git/info/exclude")); err != nil {
		t.Fatal(err)
	}
	if err := p.repo.writeExcludes(context.Background()); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(p.repo.dir, "info", "exclude"))
	if bytes.Contains(b, []byte("secret-pattern-from-outside")) {
		t.Errorf("the exclude file was read through a link out of the project:\n%s", b)
	}
	// A plain exclude file is used.
	os.Remove(p.path(".git/info/exclude"))
	os.WriteFile(p.path(".git/info/exclude"), []byte("*.local\n"), 0o644)
	p.repo.writeExcludes(context.Background())
	if b, _ := os.ReadFile(filepath.Join(p.repo.dir, "info", "exclude")); !bytes.Contains(b, []byte("*.local")) {
		t.Errorf("the project's own exclude file was not used:\n%s", b)
	}
}

// The shadow repository keeps to its byte budget: a command that writes much into the project, snapshot after
// snapshot, makes the oldest snapshots go, not the disk fill; the newest stays. Retention runs by itself at the
// tenth snapshot when the objects exceed the budget.
func TestByteBudget(t *testing.T) {
	t.Parallel()
	p := newProject(t, map[string]string{"a.txt": "a\n"})
	p.repo.opt.MaxBytes = 300 << 10
	p.repo.opt.pruneAfter = "now" // nothing else writes here: collect at once
	var ids []string
	for range 10 {
		junk := make([]byte, 100<<10)
		rand.Read(junk) // incompressible, as a flood of generated files would be
		p.write("big.bin", string(junk))
		ids = append(ids, p.take("edit").ID)
	}
	if n := p.repo.objectBytes(); n > p.repo.opt.MaxBytes {
		t.Errorf("the shadow repository holds %d bytes, over its budget of %d", n, p.repo.opt.MaxBytes)
	}
	list, err := p.repo.List(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) == 0 || len(list) >= 10 || list[0].ID != ids[9] {
		t.Errorf("after the budget: %d snapshots, newest %v", len(list), list)
	}
	if out, err := p.repo.git(ctx, nil, "show", ids[9]+":a.txt"); err != nil || string(out) != "a\n" {
		t.Errorf("the newest snapshot lost a.txt: %v %q", err, out)
	}
}
