package workspace

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/session"
	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/testtree"
)

// call runs a tool on w and decodes its result into T, failing the test on a tool error.
func call[T any](t *testing.T, w *Workspace, name, args string) T {
	t.Helper()
	raw, e := w.Registry().Call(context.Background(), name, []byte(args))
	if e != nil {
		t.Fatalf("%s in %s: %v", name, w.ID(), e)
	}
	var out T
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("%s result %s: %v", name, raw, err)
	}
	return out
}

type searchOut struct {
	Matches []struct {
		Path string `json:"path"`
	} `json:"matches"`
}

func (s searchOut) has(path string) bool {
	for _, m := range s.Matches {
		if m.Path == path {
			return true
		}
	}
	return false
}

type snapshotsOut struct {
	Snapshots []struct {
		ID string `json:"id"`
	} `json:"snapshots"`
}

// openLive opens dir in set and waits until it is prepared.
func openLive(t *testing.T, set *Set, dir string) *Workspace {
	t.Helper()
	w, existing, err := set.Open(context.Background(), dir)
	if err != nil || existing {
		t.Fatalf("open %s: existing %v, %v", dir, existing, err)
	}
	if err := w.WaitReady(context.Background()); err != nil {
		t.Fatal(err)
	}
	return w
}

// eventually retries check until it passes or a generous deadline (the watcher's debounce on a loaded machine).
func eventually(t *testing.T, what string, check func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); !check(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("never: %s", what)
		}
	}
}

// Two projects open in one process are independent: a job of A runs on while B opens, works and closes, and A's
// index, watcher and snapshots go on working after B has closed. With one-slot holders, opening B closed A's
// index and snapshots and ended A's jobs.
func TestTwoWorkspacesAreIndependent(t *testing.T) {
	set := &Set{Options: Options{Live: true}}
	t.Cleanup(set.CloseAll)
	dirA := testtree.Dir(t, map[string]string{"a.txt": "alpha needle\n"})
	dirB := testtree.Dir(t, map[string]string{"b.txt": "beta needle\n"})
	a := openLive(t, set, dirA)
	if err := a.Settings().SetProject(a.Root(), settings.Project{Allowlist: []string{"sh"}}); err != nil {
		t.Fatal(err)
	}
	started := call[struct {
		Job struct {
			ID string `json:"id"`
		} `json:"job"`
	}](t, a, "exec_shell", `{"command": "sh -c 'echo up; sleep 600'", "background": true}`)
	job, err := a.Jobs().Get(a.Root(), started.Job.ID)
	if err != nil {
		t.Fatal(err)
	}

	b := openLive(t, set, dirB)
	if b.ID() == a.ID() {
		t.Fatalf("two workspaces share the id %s", a.ID())
	}
	if got := call[searchOut](t, b, "search_files", `{"query": "needle"}`); !got.has("b.txt") || got.has("a.txt") {
		t.Errorf("B's search: %+v", got)
	}
	call[any](t, b, "write_file", `{"path": "b2.txt", "content": "beta two\n"}`)
	if err := set.Close(b.ID()); err != nil {
		t.Fatal(err)
	}
	if _, err := set.Get(b.ID()); !errors.Is(err, ErrNotOpen) {
		t.Errorf("B after its close: %v", err)
	}

	select {
	case <-job.Done():
		t.Fatal("A's job ended when B opened or closed")
	default:
	}
	// A's index answers, and its watcher still reports: a file written behind the tools' back is found.
	call[any](t, a, "write_file", `{"path": "a2.txt", "content": "written needle\n"}`)
	if got := call[searchOut](t, a, "search_files", `{"query": "needle"}`); !got.has("a.txt") || !got.has("a2.txt") || got.has("b.txt") {
		t.Errorf("A's search after B closed: %+v", got)
	}
	if err := os.WriteFile(filepath.Join(dirA, "outside.txt"), []byte("outside needle\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	eventually(t, "A's watcher reports a file written on disk", func() bool {
		st, ok := a.Watch()
		return ok && !st.Degraded && call[searchOut](t, a, "search_files", `{"query": "outside"}`).has("outside.txt")
	})
	// A's snapshots still record and restore: the project was recorded before the write of a2.txt (a snapshot
	// identical to the one before is not taken again), and restoring the newest one undoes the write.
	snaps := call[snapshotsOut](t, a, "list_snapshots", `{}`)
	if len(snaps.Snapshots) == 0 {
		t.Fatalf("A has no snapshots after B closed: %+v", snaps)
	}
	before := snaps.Snapshots[0].ID
	call[any](t, a, "restore_snapshot", `{"id": "`+before+`", "paths": ["a2.txt"]}`)
	if _, err := os.Stat(filepath.Join(dirA, "a2.txt")); !os.IsNotExist(err) {
		t.Errorf("a2.txt after restoring the snapshot before it: %v", err)
	}

	// Closing A ends its job, and only then.
	if err := set.Close(a.ID()); err != nil {
		t.Fatal(err)
	}
	select {
	case <-job.Done():
	default:
		t.Fatal("A's job outlived A's close")
	}
}

// A folder open already is focused, not opened twice; ids are never reused after a close; Close is idempotent.
func TestSetOpensEachFolderOnce(t *testing.T) {
	set := &Set{Options: Options{Live: true}}
	t.Cleanup(set.CloseAll)
	dir := testtree.Dir(t, map[string]string{"x.txt": "x\n"})
	first := openLive(t, set, dir)
	again, existing, err := set.Open(context.Background(), dir+string(filepath.Separator)+".")
	if err != nil || !existing || again != first {
		t.Fatalf("the same folder again: %v %v %v", again.ID(), existing, err)
	}
	if n := len(set.List()); n != 1 {
		t.Fatalf("%d workspaces listed", n)
	}
	if err := set.Close(first.ID()); err != nil {
		t.Fatal(err)
	}
	if err := first.Close(); err != nil {
		t.Errorf("a second Close: %v", err)
	}
	if err := set.Close(first.ID()); !errors.Is(err, ErrNotOpen) {
		t.Errorf("closing a closed id: %v", err)
	}
	reopened := openLive(t, set, dir)
	if reopened.ID() == first.ID() {
		t.Errorf("the id %s was reused", first.ID())
	}
	if _, err := first.Registry().Call(context.Background(), "read_file", []byte(`{"path": "x.txt"}`)); err == nil {
		t.Error("a closed workspace's tools still read the project")
	}
	set.CloseAll()
	if _, _, err := set.Open(context.Background(), dir); !errors.Is(err, ErrClosed) {
		t.Errorf("open after CloseAll: %v", err)
	}
}

// The events of each workspace carry its id, so a face holding several routes them.
func TestEventsCarryTheWorkspaceID(t *testing.T) {
	set := &Set{Options: Options{Live: true}}
	t.Cleanup(set.CloseAll)
	w := openLive(t, set, testtree.Dir(t, map[string]string{"x.txt": "x\n"}))
	got := make(chan Event, 64)
	cancel := w.Events().Subscribe(func(e Event) {
		if e.Kind == KindFiles {
			got <- e
		}
	})
	defer cancel()
	eventually(t, "the watcher is up", func() bool { _, ok := w.Watch(); return ok })
	if err := os.WriteFile(filepath.Join(w.Root(), "y.txt"), []byte("y\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	select {
	case e := <-got:
		if e.Workspace != w.ID() || e.Data.(Files).Root != w.Root() {
			t.Errorf("event %+v from workspace %s", e, w.ID())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no files event")
	}
}

// A held preparation starts when its hold is released, not before; a workspace closed while held closes at once
// and is never prepared (the MCP server whose client left before its handshake).
func TestHeldPreparationStartsOnRelease(t *testing.T) {
	hold := make(chan struct{})
	prepared := make(chan struct{}, 2)
	opt := Options{Live: true, Hold: hold, Prepare: func(session.Info) { prepared <- struct{}{} }}
	w, err := Open(context.Background(), testtree.Dir(t, map[string]string{"a.txt": "a\n"}), "held", opt)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if err := w.WaitReady(ctx); err == nil {
		t.Fatal("ready while its preparation is held")
	}
	if len(prepared) != 0 {
		t.Fatal("prepared while held")
	}
	// A read needs no preparation: it answers while held.
	if got := call[map[string]any](t, w, "read_file", `{"path":"a.txt"}`); got["content"] == nil {
		t.Errorf("read while held: %v", got)
	}
	close(hold)
	if err := w.WaitReady(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(prepared) != 1 {
		t.Errorf("prepared %d times after the release, want once", len(prepared))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}

	never := make(chan struct{})
	w, err = Open(context.Background(), testtree.Dir(t, map[string]string{"a.txt": "a\n"}), "closed-held", Options{Live: true, Hold: never, Prepare: func(session.Info) { prepared <- struct{}{} }})
	if err != nil {
		t.Fatal(err)
	}
	closed := make(chan error, 1)
	go func() { closed <- w.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Close waits for a preparation that is held")
	}
	if len(prepared) != 1 {
		t.Error("a workspace closed while held was prepared")
	}
	if err := w.WaitReady(context.Background()); err != nil {
		t.Errorf("WaitReady after Close: %v", err)
	}
}
