package worktree

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/index"
	"github.com/rooted-dev/rooted/backend/session"
	"github.com/rooted-dev/rooted/backend/snapshot"
	"github.com/rooted-dev/rooted/backend/testtree"
	"github.com/rooted-dev/rooted/backend/tools"
)

// BenchmarkWorktreeOfCorpus makes a worktree of a large repository ($ROOTED_WORKTREE_CORPUS: bench/worktree.sh
// builds the 92k-file one) and opens it as the window opens a project (index and watcher, then the first
// snapshot), against `git worktree add` alone on the same repository. It reports each in milliseconds and
// new_ratio (New over git alone) and open_ratio (New and opening, snapshot included, over git alone).
func BenchmarkWorktreeOfCorpus(b *testing.B) {
	corpus := os.Getenv("ROOTED_WORKTREE_CORPUS")
	if corpus == "" {
		b.Skip("ROOTED_WORKTREE_CORPUS names no repository (bench/worktree.sh builds one)")
	}
	ctx := context.Background()
	cache := b.TempDir()
	m := &Manager{CacheDir: cache, Snapshots: ShadowSnapshots{CacheDir: cache}}
	var gitAlone, made, ready, snapped time.Duration
	for i := 0; b.Loop(); i++ {
		// git alone, as a user would type it.
		dir := filepath.Join(b.TempDir(), "plain")
		branch := fmt.Sprintf("bench-plain-%d-%d", os.Getpid(), i)
		start := time.Now()
		testtree.Git(b, corpus, "worktree", "add", "--quiet", "-b", branch, dir)
		gitAlone += time.Since(start)
		testtree.Git(b, corpus, "worktree", "remove", "--force", dir)
		testtree.Git(b, corpus, "branch", "-D", branch)

		start = time.Now()
		w, err := m.New(ctx, corpus, NewOptions{Name: fmt.Sprintf("bench %d %d", os.Getpid(), i)})
		if err != nil {
			b.Fatal(err)
		}
		made += time.Since(start)
		s, err := session.Open(w.Path)
		if err != nil {
			b.Fatal(err)
		}
		info, _ := s.Info()
		idx := &index.Indexes{}
		d := tools.Deps{Session: s, Indexes: idx, Snapshots: &snapshot.Projects{CacheDir: cache}}
		d.Prepare(info, nil)
		ready += time.Since(start)
		t, _ := s.Resolve("")
		repo, err := d.Snapshots.For(t.Root, info.Root)
		if err == nil {
			_, err = repo.Take(ctx, "bench")
		}
		if err != nil {
			b.Fatal(err)
		}
		snapped += time.Since(start)
		d.Snapshots.Close()
		idx.Close()
		s.Close()
		if err := m.Discard(ctx, corpus, w.Name); err != nil {
			b.Fatal(err)
		}
	}
	n := float64(b.N)
	ms := func(d time.Duration) float64 { return float64(d.Milliseconds()) / n }
	b.ReportMetric(ms(gitAlone), "git-add-ms")
	b.ReportMetric(ms(made), "new-ms")
	b.ReportMetric(ms(ready), "new+open-ms")
	b.ReportMetric(ms(snapped), "new+open+snapshot-ms")
	b.ReportMetric(float64(made)/float64(gitAlone), "new_ratio")
	b.ReportMetric(float64(snapped)/float64(gitAlone), "open_ratio")
}
