package snapshot

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A watched project's snapshots are derived from the previous tree by replacing the changed paths. After every
// kind of change (edit, create in an existing or a new folder, delete a file or a folder, chmod +x, symlink, a
// file becoming a folder, an ignored file, a tracked file that matches .gitignore, a pipe), the derived snapshot
// holds exactly the tree a full scan of the same files records.
func TestDerivedSnapshotsEqualFullScans(t *testing.T) {
	t.Parallel()
	p := newProject(t, map[string]string{
		".gitignore": "*.log\nbuild/\n",
		"a.txt":      "a\n", "src/main.go": "package main\n", "src/util/u.go": "package util\n", "docs/x.md": "x\n",
	})
	p.repo.Track(true)
	p.take("first")
	// A full scan of the same state, in a repository of its own, is the reference.
	fullTree := func() string {
		t.Helper()
		other, err := Open(p.root, p.dir, t.TempDir(), Options{})
		if err != nil {
			t.Fatal(err)
		}
		s, err := other.Take(ctx, "full")
		if err != nil {
			t.Fatal(err)
		}
		out, err := other.git(ctx, nil, "rev-parse", s.ID+"^{tree}")
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(out))
	}
	treeOf := func(s Snapshot) string {
		out, err := p.repo.git(ctx, nil, "rev-parse", s.ID+"^{tree}")
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(out))
	}
	ops := []struct {
		name  string
		do    func()
		dirty []string
	}{
		{"edit", func() { p.write("a.txt", "a2\n") }, []string{"a.txt"}},
		{"create in a folder", func() { p.write("src/new.go", "package main\n") }, []string{"src/new.go"}},
		{"create in new folders", func() { p.write("pkg/deep/d.go", "package deep\n") }, []string{"pkg", "pkg/deep", "pkg/deep/d.go"}},
		{"delete a file", func() { os.Remove(p.path("docs/x.md")) }, []string{"docs/x.md"}},
		{"delete a folder", func() { os.RemoveAll(p.path("src/util")) }, []string{"src/util"}},
		{"chmod +x", func() { os.Chmod(p.path("src/main.go"), 0o755) }, []string{"src/main.go"}},
		{"symlink", func() { os.Symlink("a.txt", p.path("link")) }, []string{"link"}},
		{"file becomes folder", func() { os.Remove(p.path("a.txt")); p.write("a.txt/inner", "i\n") }, []string{"a.txt", "a.txt/inner"}},
		{"ignored file", func() { p.write("debug.log", "no\n") }, []string{"debug.log"}},
		{"ignored folder", func() { p.write("build/out.bin", "no\n") }, []string{"build/out.bin"}},
		{"pipe", func() { mkfifo(t, p.path("fifo")) }, []string{"fifo"}},
		{"big file", func() { p.write("big.txt", strings.Repeat("x", MaxFileSize+1)) }, []string{"big.txt"}},
		{"edit then unchanged", func() { p.write("src/new.go", "package main\n") }, []string{"src/new.go"}},
	}
	takes := 0
	rng := rand.New(rand.NewPCG(7, 7))
	for round := range 3 {
		for _, op := range ops {
			op.do()
			for _, d := range op.dirty {
				p.repo.MarkDirty(d)
			}
			got := treeOf(p.take(op.name))
			takes++
			if want := fullTree(); got != want {
				t.Fatalf("round %d, after %q: derived tree %s, full scan %s", round, op.name, got, want)
			}
		}
		// Random edits to the files there are now.
		for range 20 {
			var all []string
			filepath.WalkDir(p.dir, func(path string, d os.DirEntry, err error) error {
				if err == nil && d.Type().IsRegular() && !strings.Contains(path, "/.git/") {
					rel, _ := filepath.Rel(p.dir, path)
					all = append(all, filepath.ToSlash(rel))
				}
				return nil
			})
			f := all[rng.IntN(len(all))]
			if strings.HasPrefix(f, "big") {
				continue
			}
			p.write(f, fmt.Sprintf("edit %d\n", rng.Int()))
			p.repo.MarkDirty(f)
		}
		takes++
		if got, want := treeOf(p.take("random edits")), fullTree(); got != want {
			t.Fatalf("round %d, after random edits: derived %s, full scan %s", round, got, want)
		}
		// A folder becomes a file again; the rest goes, so the next round starts alike.
		os.RemoveAll(p.path("a.txt"))
		p.write("a.txt", "a\n")
		p.repo.MarkDirty("a.txt")
		os.Remove(p.path("link"))
		os.Remove(p.path("fifo"))
		os.Remove(p.path("big.txt"))
		p.repo.MarkDirty("link")
		p.repo.MarkDirty("fifo")
		p.repo.MarkDirty("big.txt")
	}
	if p.repo.derived != takes {
		t.Errorf("%d of %d snapshots were derived; the rest fell back to a full scan", p.repo.derived, takes)
	}
}

func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := mkfifoSys(path); err != nil {
		t.Fatal(err)
	}
}

// A diff between a snapshot and now, asked for between an edit and the next snapshot (as the window's edit card
// does), must not swallow the edit: the next snapshot still records it, and a restore to before it works.
func TestDiffBetweenEditAndSnapshotKeepsTheEdit(t *testing.T) {
	t.Parallel()
	p := newProject(t, map[string]string{"README.md": "# Demo\n"})
	p.repo.Track(true)
	p.take("first")
	before := p.take("backup before write")
	p.write("README.md", "# Changed\n")
	p.repo.MarkDirty("README.md")
	d, err := p.repo.Diff(ctx, before.ID, "")
	if err != nil || !strings.Contains(d, "-# Demo") || !strings.Contains(d, "+# Changed") {
		t.Fatalf("diff: %v\n%s", err, d)
	}
	res, err := p.repo.Restore(ctx, before.ID, nil)
	if err != nil || len(res.Written) != 1 {
		t.Fatalf("restore: %+v, %v", res, err)
	}
	if b, _ := os.ReadFile(p.path("README.md")); string(b) != "# Demo\n" {
		t.Errorf("after restore: %q", b)
	}
	if p.repo.derived == 0 {
		t.Error("no snapshot was derived")
	}
}
