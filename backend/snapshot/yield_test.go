package snapshot

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/sched"
	"github.com/rooted-dev/rooted/backend/search"
)

// heldSource is a search source whose walk waits until release: a search of it is running until then.
type heldSource struct {
	started chan struct{}
	once    *sync.Once
	gate    chan struct{}
}

func (s heldSource) Walk(ctx context.Context, _ string, _ search.WalkOptions, _ func(search.File) bool) error {
	s.once.Do(func() { close(s.started) })
	<-s.gate
	return nil
}

func (heldSource) Content(search.File) ([]byte, func(), error) {
	return nil, func() {}, search.ErrNotSearchable
}

// holdSearch starts a search in lane (a workspace's) that runs until the returned function is called.
func holdSearch(t *testing.T, lane *sched.Lane) (release func()) {
	t.Helper()
	src := heldSource{started: make(chan struct{}), once: &sync.Once{}, gate: make(chan struct{})}
	done := make(chan struct{})
	go func() {
		defer close(done)
		search.Search(context.Background(), src, ".", search.Options{Query: "needle", Lane: lane})
	}()
	<-src.started
	var once sync.Once
	release = func() { once.Do(func() { close(src.gate); <-done }) }
	t.Cleanup(release)
	return release
}

// takenWithin runs take in a goroutine of its own and fails the test, saying why, unless it returns without an
// error within d.
func takenWithin(t *testing.T, d time.Duration, why string, take func() error) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- take() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(d):
		t.Fatal(why)
	}
}

// The first snapshot of a project just opened is background work: while the agent's search runs it waits, and
// it is taken once the search ends. A snapshot someone waits for (an edit's, taken on a context of its own) does
// not wait for searches.
func TestFirstSnapshotWaitsForSearches(t *testing.T) {
	p := newProject(t, map[string]string{"a.txt": "a\n", "dir/b.txt": "b\n"})
	release := holdSearch(t, p.lane)
	type result struct {
		snap Snapshot
		err  error
	}
	first := make(chan result, 1)
	go func() {
		s, err := p.repo.TakeAfter(Background(ctx), 0, "Project opened")
		first <- result{s, err}
	}()
	select {
	case r := <-first:
		t.Fatalf("the first snapshot was taken while a search ran: %+v %v", r.snap, r.err)
	case <-time.After(500 * time.Millisecond):
	}
	release()
	select {
	case r := <-first:
		if r.err != nil || r.snap.ID == "" || r.snap.Paths != nil {
			t.Fatalf("the first snapshot after the search: %+v %v", r.snap, r.err)
		}
		if d, err := p.repo.Diff(ctx, r.snap.ID, "dir/b.txt"); err != nil || d != "" {
			t.Errorf("the first snapshot does not hold dir/b.txt as it is: %q %v", d, err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the first snapshot was not taken after the search ended")
	}

	q := newProject(t, map[string]string{"c.txt": "c\n"})
	holdSearch(t, q.lane)
	takenWithin(t, time.Minute, "a snapshot taken for an edit waited for a search", func() error {
		_, err := q.repo.Take(ctx, "Backup before file mod")
		return err
	})
}

// A search that never ends does not keep the first snapshot from being taken: background work waits at most
// search.DefaultMaxWait at a time.
func TestFirstSnapshotIsNotStarvedBySearches(t *testing.T) {
	p := newProject(t, map[string]string{"a.txt": "a\n"})
	holdSearch(t, p.lane)
	takenWithin(t, 2*time.Minute, "the first snapshot waited for a search that does not end", func() error {
		_, err := p.repo.TakeAfter(Background(ctx), 0, "Project opened")
		return err
	})
}

// A first snapshot waiting for a search holds the repository's lock; a command's backup that arrives meanwhile
// ends the wait rather than queueing behind the search (with the waits made ten minutes long, the backup still
// comes within the minute), and a diff likewise.
func TestACallerWaitingForTheLockEndsTheYield(t *testing.T) {
	p := newProject(t, map[string]string{"a.txt": "a\n", "dir/b.txt": "b\n"})
	p.repo.yielder.MaxWait = 10 * time.Minute
	release := holdSearch(t, p.lane)
	first := make(chan error, 1)
	go func() { _, err := p.repo.TakeAfter(Background(ctx), 0, "Project opened"); first <- err }()
	for !p.repo.mu.Scanning() {
		time.Sleep(time.Millisecond)
	}
	takenWithin(t, time.Minute, "a command's backup waited behind a first snapshot that yielded to a search", func() error {
		_, err := p.repo.Take(ctx, "Backup before command")
		return err
	})
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	release()
}

// Two projects open in one process: searches in one, however many and however long, never hold back the other's
// first snapshot, nor pause the gits it runs (with its waits made ten minutes long, it is taken within the
// minute). In its own workspace the same searches hold it back (TestFirstSnapshotWaitsForSearches).
func TestSearchesInAnotherWorkspaceDoNotHoldTheFirstSnapshot(t *testing.T) {
	t.Parallel()
	busy := newProject(t, map[string]string{"x.txt": "x\n"})
	p := newProject(t, map[string]string{"a.txt": "a\n", "dir/b.txt": "b\n"})
	p.repo.yielder.MaxWait = 10 * time.Minute
	for range 3 {
		holdSearch(t, busy.lane)
	}
	takenWithin(t, time.Minute, "the first snapshot waited for another workspace's searches", func() error {
		_, err := p.repo.TakeAfter(Background(ctx), 0, "Project opened")
		return err
	})
	if p.repo.yielder.Waiting() {
		t.Fatal("still waiting after the snapshot")
	}
}
