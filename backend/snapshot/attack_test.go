package snapshot

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/gitexec"
	"github.com/rooted-dev/rooted/backend/testtree"
)

// What a command can leave in the project for Rooted's own git to run later: a row per way. Each payload appends
// to a marker file outside the project; after snapshots (full scans, which look at nested repositories, and
// derived ones), a diff and restores, no marker may exist. The table runs with git sandboxed and without: the
// hardening alone must hold, and the sandbox holds a setting it misses.
func TestSnapshotsRunNothingFromTheProject(t *testing.T) {
	t.Run("hardened", attackTable)
	defer gitexec.UseSandbox()()
	if !gitexec.Sandboxed() {
		t.Log("no OS sandbox here: the hardened run is the only one")
		return
	}
	t.Run("hardened and sandboxed", attackTable)
}

func attackTable(t *testing.T) {
	rows := []struct {
		name  string
		plant func(t *testing.T, p *project, run string)
	}{
		{"nested repository's core.fsmonitor", func(t *testing.T, p *project, run string) {
			nested(t, p, "vendor/lib")
			appendConfig(t, p.path("vendor/lib/.git/config"), "[core]\n\tfsmonitor = \""+run+"\"\n")
		}},
		{"nested repository's hooks", func(t *testing.T, p *project, run string) {
			nested(t, p, "vendor/lib")
			for _, h := range []string{"post-index-change", "reference-transaction", "post-checkout", "pre-commit", "fsmonitor-watchman"} {
				os.WriteFile(p.path("vendor/lib/.git/hooks/"+h), []byte("#!/bin/sh\n"+run+"\n"), 0o755)
			}
			appendConfig(t, p.path("vendor/lib/.git/config"), "[core]\n\thooksPath = hooks\n")
		}},
		{"nested repository's filters, textconv and external diff", func(t *testing.T, p *project, run string) {
			nested(t, p, "vendor/lib")
			p.write("vendor/lib/.gitattributes", "* filter=evil diff=evil\n")
			appendConfig(t, p.path("vendor/lib/.git/config"), "[filter \"evil\"]\n\tclean = \""+run+"\"\n\tsmudge = \""+run+"\"\n\tprocess = \""+run+"\"\n"+
				"[diff \"evil\"]\n\ttextconv = \""+run+"\"\n\tcommand = \""+run+"\"\n[diff]\n\texternal = \""+run+"\"\n")
		}},
		{"nested repository behind a gitdir file", func(t *testing.T, p *project, run string) {
			nested(t, p, "vendor/gl")
			os.Rename(p.path("vendor/gl/.git"), p.path(".gx"))
			p.write("vendor/gl/.git", "gitdir: ../../.gx\n")
			appendConfig(t, p.path(".gx/config"), "[core]\n\tfsmonitor = \""+run+"\"\n\tworktree = ../vendor/gl\n")
		}},
		{"submodule with .git/modules", func(t *testing.T, p *project, run string) {
			testtree.Git(t, p.dir, "init", "-q")
			nested(t, p, "sub")
			os.MkdirAll(p.path(".git/modules"), 0o755)
			os.Rename(p.path("sub/.git"), p.path(".git/modules/sub"))
			p.write("sub/.git", "gitdir: ../.git/modules/sub\n")
			appendConfig(t, p.path(".git/modules/sub/config"), "[core]\n\tfsmonitor = \""+run+"\"\n\tworktree = ../../../sub\n")
			p.write(".gitmodules", "[submodule \"sub\"]\n\tpath = sub\n\turl = ./sub\n")
			testtree.Git(t, p.dir, "add", ".gitmodules", "sub")
			appendConfig(t, p.path(".git/config"), "[submodule \"sub\"]\n\tactive = true\n\turl = ./sub\n[submodule]\n\trecurse = true\n")
		}},
		{"project's own config, attributes and hooks", func(t *testing.T, p *project, run string) {
			testtree.Git(t, p.dir, "init", "-q")
			testtree.Git(t, p.dir, "add", "-A")
			p.write(".gitattributes", "* filter=evil diff=evil\n")
			appendConfig(t, p.path(".git/config"), "[core]\n\tfsmonitor = \""+run+"\"\n[filter \"evil\"]\n\tclean = \""+run+"\"\n\tprocess = \""+run+"\"\n"+
				"[diff \"evil\"]\n\ttextconv = \""+run+"\"\n[diff]\n\texternal = \""+run+"\"\n")
			os.WriteFile(p.path(".git/hooks/post-index-change"), []byte("#!/bin/sh\n"+run+"\n"), 0o755)
		}},
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			marker := filepath.Join(t.TempDir(), "MARKER")
			run := "echo RAN >> " + marker + "; cat"
			p := newProject(t, map[string]string{"a.txt": "one\n"})
			row.plant(t, p, run)
			first := p.take("first")
			// The nested repositories change: a full scan asks git whether they are modified.
			for _, d := range []string{"vendor/lib", "vendor/gl", "sub"} {
				if _, err := os.Stat(p.path(d)); err == nil {
					p.write(d+"/new.txt", "new\n")
					os.WriteFile(p.path(d+"/file.txt"), []byte("changed\n"), 0o644)
				}
			}
			p.write("a.txt", "two\n")
			p.take("second")
			p.repo.Track(true)
			p.repo.MarkDirty("a.txt")
			p.write("a.txt", "three\n")
			p.take("derived")
			if _, err := p.repo.Diff(ctx, first.ID, ""); err != nil {
				t.Fatal(err)
			}
			if _, err := p.repo.Restore(ctx, first.ID, nil); err != nil {
				t.Fatal(err)
			}
			if b, _ := os.ReadFile(p.path("a.txt")); string(b) != "one\n" {
				t.Errorf("restored a.txt: %q", b)
			}
			if b, err := os.ReadFile(marker); err == nil {
				t.Fatalf("a program the project planted ran: %s", b)
			}
			// Nested repositories are never entered: a snapshot holds a pointer to their commit, none of their files.
			out, err := p.repo.git(ctx, nil, "ls-tree", "-r", "--name-only", first.ID)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range strings.Fields(string(out)) {
				if strings.HasPrefix(f, "vendor/lib/") || strings.HasPrefix(f, "vendor/gl/") || strings.HasPrefix(f, "sub/") {
					t.Errorf("the snapshot holds %s, inside a nested repository", f)
				}
			}
		})
	}
}

// nested makes a repository with a commit at rel.
func nested(t *testing.T, p *project, rel string) {
	p.write(rel+"/file.txt", "nested\n")
	testtree.Git(t, p.path(rel), "init", "-q")
	testtree.Git(t, p.path(rel), "add", "-A")
	testtree.Git(t, p.path(rel), "commit", "-qm", "nested")
	os.MkdirAll(p.path(rel+"/.git/hooks"), 0o755)
}

func appendConfig(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.WriteString("\n" + text)
}
