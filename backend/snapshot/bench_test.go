package snapshot

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/testcorpus"

	"github.com/rooted-dev/rooted/backend/files"
)

// benchProject copies the corpus ($ROOTED_SNAPSHOT_CORPUS, default the Go source tree) into a fresh directory.
func benchProject(b *testing.B) (string, *os.Root) {
	src := os.Getenv("ROOTED_SNAPSHOT_CORPUS")
	if src == "" {
		src = testcorpus.GoSrc()
	}
	dst := filepath.Join(b.TempDir(), "project")
	if out, err := exec.Command("cp", "-R", src, dst).CombinedOutput(); err != nil {
		b.Skipf("copying the corpus: %v %s", err, out)
	}
	os.RemoveAll(filepath.Join(dst, ".git"))
	r, err := os.OpenRoot(dst)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { r.Close() })
	return dst, r
}

func dirSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}

// benchEdits reports the first snapshot's time, then b.N edits of one file, each a snapshot followed by an
// atomic write, as write_file does: the median per edit, and the shadow repository's size after them.
func benchEdits(b *testing.B, tracked bool) {
	dir, root := benchProject(b)
	repo, err := Open(root, dir, b.TempDir(), Options{})
	if err != nil {
		b.Fatal(err)
	}
	repo.Track(tracked)
	start := time.Now()
	if _, err := repo.Take(context.Background(), "first"); err != nil {
		b.Fatal(err)
	}
	first := time.Since(start)
	target := filepath.Join("strings", "strings.go")
	var times []time.Duration
	b.ResetTimer()
	i := 0
	for b.Loop() {
		t0 := time.Now()
		if _, err := repo.Take(context.Background(), "Backup before file mod: strings/strings.go"); err != nil {
			b.Fatal(err)
		}
		content := fmt.Sprintf("package strings\n\n// edit %d\n", i)
		if _, err := files.Write(root, target, []byte(content), nil); err != nil {
			b.Fatal(err)
		}
		if tracked {
			repo.MarkDirty("strings/strings.go") // what the watcher reports in the app
		}
		times = append(times, time.Since(t0))
		i++
	}
	b.StopTimer()
	slices.Sort(times)
	b.ReportMetric(first.Seconds(), "first-snapshot-s")
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "median-ms/edit")
	b.ReportMetric(float64(times[len(times)*95/100].Microseconds())/1000, "p95-ms/edit")
	b.ReportMetric(float64(dirSize(repo.Dir()))/(1<<20), "repo-MiB")
}

func BenchmarkEditScanned(b *testing.B) { benchEdits(b, false) }

func BenchmarkEditTracked(b *testing.B) { benchEdits(b, true) }

// BenchmarkFirstSnapshot times a project's first snapshot: a git project (the corpus committed, one file then
// modified and one added) seeded from its own index, and the same files without .git, hashed and stored whole.
func BenchmarkFirstSnapshot(b *testing.B) {
	for _, withGit := range []bool{true, false} {
		name := "plain"
		if withGit {
			name = "git-project"
		}
		b.Run(name, func(b *testing.B) {
			dir, root := benchProject(b)
			if withGit {
				for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=b", "-c", "user.email=b@b", "commit", "-qm", "corpus"}} {
					cmd := exec.Command("git", args...)
					cmd.Dir = dir
					if out, err := cmd.CombinedOutput(); err != nil {
						b.Fatalf("git %v: %v %s", args, err, out)
					}
				}
			}
			os.WriteFile(filepath.Join(dir, "strings", "strings.go"), []byte("package strings\n// changed\n"), 0o644)
			os.WriteFile(filepath.Join(dir, "untracked.go"), []byte("package x\n"), 0o644)
			var took time.Duration
			for b.Loop() {
				b.StopTimer()
				repo, err := Open(root, dir, b.TempDir(), Options{})
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				start := time.Now()
				if _, err := repo.Take(context.Background(), "first"); err != nil {
					b.Fatal(err)
				}
				took = time.Since(start)
			}
			b.ReportMetric(took.Seconds(), "first-snapshot-s")
		})
	}
}
