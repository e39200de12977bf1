package snapshot

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/testtree"
)

// fingerprintDir describes every file below dir: name, mode, size, mtime and a hash of the content. Object files'
// mtimes are left out: git "freshens" an object it finds in an alternate store instead of writing it again (it
// touches the file's mtime, so a gc there keeps it longer), which the shadow repository's git does for racily
// clean files it re-hashes. Their content and set must not change.
func fingerprintDir(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := os.Lstat(p)
		if err != nil {
			return err
		}
		sum := ""
		if info.Mode().IsRegular() {
			c, _ := os.ReadFile(p)
			sum = fmt.Sprintf("%x", sha256.Sum256(c))
		}
		mtime := info.ModTime().UnixNano()
		if strings.Contains(p, string(filepath.Separator)+"objects"+string(filepath.Separator)) {
			mtime = 0
		}
		fmt.Fprintf(&b, "%s %v %d %d %s\n", p, info.Mode(), info.Size(), mtime, sum)
		return nil
	})
	if err != nil {
		t.Fatalf("walking %s: %v", dir, err)
	}
	return b.String()
}

func looseObjects(t *testing.T, repo string) int {
	n := 0
	filepath.WalkDir(filepath.Join(repo, "objects"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && len(filepath.Base(filepath.Dir(p))) == 2 {
			n++
		}
		return nil
	})
	return n
}

// A git project's first snapshot starts from the project's own index and borrows its objects: clean tracked files
// are neither hashed nor stored again, the snapshot holds exactly the work tree (modified, untracked and deleted
// files included), the project's .git is not written to, and once the borrowed objects are copied the snapshots
// no longer need the project's .git at all.
func TestFirstSnapshotSeedsFromTheProjectsIndex(t *testing.T) {
	t.Parallel()
	files := map[string]string{".gitignore": "*.log\n"}
	for i := range 300 {
		files[fmt.Sprintf("pkg%d/file%d.go", i%10, i)] = fmt.Sprintf("package p\n// %d\n", i)
	}
	p := newProject(t, files)
	testtree.Git(t, p.dir, "init", "-q", "-b", "main")
	testtree.Git(t, p.dir, "add", "-A")
	testtree.Git(t, p.dir, "commit", "-qm", "tracked")
	p.write("pkg1/file1.go", "package p\n// modified\n")
	p.write("new/untracked.go", "package n\n")
	p.write("debug.log", "ignored\n")
	os.Remove(p.path("pkg2/file2.go"))
	before := fingerprintDir(t, filepath.Join(p.dir, ".git"))
	p.repo.DetachBorrowed()

	// An edit's backup: the copy of borrowed objects is left to the background (a command's is not, below).
	snap, err := p.repo.TakeFor(ctx, "first", []string{"pkg1/file1.go"})
	if err != nil {
		t.Fatal(err)
	}
	if !p.repo.borrowing() && looseObjects(t, p.repo.Dir()) == 0 {
		t.Fatal("the shadow repository neither borrows nor holds objects")
	}
	// Written objects: the two new blobs and the trees above them, not the 300 tracked files.
	if n := looseObjects(t, p.repo.Dir()); n > 20 {
		t.Errorf("the first snapshot stored %d objects; clean tracked files should be borrowed", n)
	}
	// The same state recorded the long way (no .git to seed from) gives the same tree.
	plain := t.TempDir()
	copyTree(t, p.dir, plain)
	os.RemoveAll(filepath.Join(plain, ".git"))
	pr, _ := os.OpenRoot(plain)
	defer pr.Close()
	var other *Repo
	other, err = Open(pr, plain, t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := other.Take(ctx, "plain")
	if err != nil {
		t.Fatal(err)
	}
	treeOf := func(r *Repo, id string) string {
		out, err := r.git(ctx, nil, "rev-parse", id+"^{tree}")
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(out))
	}
	if got, w := treeOf(p.repo, snap.ID), treeOf(other, want.ID); got != w {
		t.Errorf("seeded snapshot tree %s, the full scan's %s", got, w)
	}
	p.repo.waitDetached()
	if p.repo.borrowing() {
		t.Error("the borrowed objects were not copied after the first snapshot")
	}
	if after := fingerprintDir(t, filepath.Join(p.dir, ".git")); after != before {
		a, b := strings.Split(before, "\n"), strings.Split(after, "\n")
		for _, l := range b {
			if !slices.Contains(a, l) {
				t.Errorf("the project's .git changed: now %s", l)
			}
		}
		for _, l := range a {
			if !slices.Contains(b, l) {
				t.Errorf("the project's .git changed: was %s", l)
			}
		}
	}
	// Independent of the project's objects now: without .git, a restore still has every byte.
	os.RemoveAll(filepath.Join(p.dir, ".git"))
	p.write("pkg3/file3.go", "clobbered")
	if _, err := p.repo.Restore(ctx, snap.ID, []string{"pkg3/file3.go"}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p.path("pkg3/file3.go")); string(b) != "package p\n// 3\n" {
		t.Errorf("restored %q", b)
	}
	if _, err := p.repo.git(ctx, nil, "fsck", "--connectivity-only"); err != nil {
		t.Errorf("shadow repository after detaching: %v", err)
	}
}

// What cannot be seeded from is left to the full scan: a worktree's .git file, a split index, no index.
func TestSeedingSkipsWhatItCannotTrust(t *testing.T) {
	t.Parallel()
	for name, setup := range map[string]func(p *project){
		"no commits, no index": func(p *project) { testtree.Git(t, p.dir, "init", "-q") },
		".git is a file":       func(p *project) { p.write(".git", "gitdir: /elsewhere\n") },
		"split index": func(p *project) {
			testtree.Git(t, p.dir, "init", "-q")
			testtree.Git(t, p.dir, "-c", "core.splitIndex=true", "add", "-A")
		},
		".git/index links out": func(p *project) {
			testtree.Git(t, p.dir, "init", "-q")
			os.Symlink("/etc/hostname", p.path(".git/index"))
		},
	} {
		t.Run(name, func(t *testing.T) {
			p := newProject(t, map[string]string{"a.txt": "a\n"})
			setup(p)
			s := p.take("first")
			if p.repo.borrowing() {
				t.Error("seeded where it should not have")
			}
			if out, err := p.repo.git(ctx, nil, "show", s.ID+":a.txt"); err != nil || string(out) != "a\n" {
				t.Errorf("snapshot lacks a.txt: %v %q", err, out)
			}
		})
	}
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	if out, err := exec.Command("cp", "-a", from+"/.", to).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
}

// Before a change to anything (a command's backup), every process, a CLI call included, copies what the shadow
// repository borrows: the command may delete the project's .git.
func TestCommandBackupStopsBorrowing(t *testing.T) {
	t.Parallel()
	files := map[string]string{}
	for i := range 50 {
		files[fmt.Sprintf("f%d.txt", i)] = fmt.Sprintf("%d\n", i)
	}
	p := newProject(t, files)
	testtree.Git(t, p.dir, "init", "-q", "-b", "main")
	testtree.Git(t, p.dir, "add", "-A")
	testtree.Git(t, p.dir, "commit", "-qm", "tracked")
	snap := p.take("before a command")
	if p.repo.borrowing() {
		t.Fatal("the shadow repository still borrows the project's objects after a command's backup")
	}
	os.RemoveAll(filepath.Join(p.dir, ".git"))
	os.Remove(p.path("f7.txt"))
	if _, err := p.repo.Restore(ctx, snap.ID, nil); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p.path("f7.txt")); string(b) != "7\n" {
		t.Errorf("restored %q", b)
	}
}
