package snapshot

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/testtree"
)

// A command deletes the project's history (find .git -delete; or removes .git whole, or empties it): snapshots
// keep working, and a restore of the backup before the command brings the commits, branches, tags and HEAD back.
func TestRestoreRebuildsADeletedGit(t *testing.T) {
	t.Parallel()
	for name, destroy := range map[string]func(p *project){
		"removed whole": func(p *project) { os.RemoveAll(p.path(".git")) },
		"emptied":       func(p *project) { emptyDir(t, p.path(".git")) },
		"no HEAD":       func(p *project) { os.Remove(p.path(".git/HEAD")) },
	} {
		t.Run(name, func(t *testing.T) {
			p := newProject(t, map[string]string{"a.txt": "one\n", "src/b.go": "package b\n"})
			testtree.Git(t, p.dir, "init", "-q", "-b", "main")
			testtree.Git(t, p.dir, "add", "-A")
			testtree.Git(t, p.dir, "commit", "-qm", "first commit")
			testtree.Git(t, p.dir, "tag", "-a", "v1", "-m", "release one")
			testtree.Git(t, p.dir, "checkout", "-qb", "feature")
			p.write("a.txt", "two\n")
			testtree.Git(t, p.dir, "commit", "-qam", "second commit")
			p.write("a.txt", "stashed\n")
			testtree.Git(t, p.dir, "stash", "-q")
			testtree.Git(t, p.dir, "gc", "-q") // packed objects and refs too
			p.write("a.txt", "work in progress\n")
			backup := p.take("before the command")
			destroy(p)
			// Writes keep working without .git.
			if _, err := p.repo.TakeFor(ctx, "an edit", []string{"a.txt"}); err != nil {
				t.Fatalf("a backup after .git was deleted: %v", err)
			}
			p.write("a.txt", "edited after\n")
			p.take("after")
			res, err := p.repo.Restore(ctx, backup.ID, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !res.GitRebuilt {
				t.Error("the restore did not say it rebuilt .git")
			}
			if got := strings.TrimSpace(testtree.Git(t, p.dir, "log", "--format=%s", "feature")); got != "second commit\nfirst commit" {
				t.Errorf("git log feature: %q", got)
			}
			if got := strings.TrimSpace(testtree.Git(t, p.dir, "rev-parse", "--abbrev-ref", "HEAD")); got != "feature" {
				t.Errorf("HEAD is %q", got)
			}
			if got := strings.TrimSpace(testtree.Git(t, p.dir, "log", "--format=%s", "main")); got != "first commit" {
				t.Errorf("git log main: %q", got)
			}
			if got := strings.TrimSpace(testtree.Git(t, p.dir, "tag", "-n1")); !strings.Contains(got, "v1") || !strings.Contains(got, "release one") {
				t.Errorf("git tag: %q", got)
			}
			if got := testtree.Git(t, p.dir, "stash", "list"); !strings.Contains(got, "stash@{0}") {
				t.Errorf("git stash list: %q", got)
			}
			if got := strings.TrimSpace(testtree.Git(t, p.dir, "status", "--porcelain")); got != "M a.txt" {
				t.Errorf("git status: %q (a.txt restored as it was, modified since the last commit)", got)
			}
			testtree.Git(t, p.dir, "fsck", "--no-dangling")
			// And the next snapshot records the rebuilt history again.
			p.write("a.txt", "later\n")
			if _, err := p.repo.TakeFor(ctx, "later", nil); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func emptyDir(t *testing.T, dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		os.RemoveAll(filepath.Join(dir, e.Name()))
	}
}
