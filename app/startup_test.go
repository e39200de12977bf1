package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// allEvents records every event the services emit, as the window would receive them.
type allEvents struct {
	mu  sync.Mutex
	got []string // "name state-or-path"
}

func (e *allEvents) emit(name string, data any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	switch d := data.(type) {
	case SnapshotProgress:
		e.got = append(e.got, name+" "+d.State)
	case FsChanges:
		for _, c := range d.Changes {
			e.got = append(e.got, name+" "+c.Path)
		}
	default:
		e.got = append(e.got, name)
	}
}

func (e *allEvents) waitFor(t *testing.T, want ...string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		e.mu.Lock()
		seen := strings.Join(e.got, "\n") + "\n"
		e.mu.Unlock()
		missing := []string{}
		for _, w := range want {
			if !strings.Contains(seen, w+"\n") {
				missing = append(missing, w)
			}
		}
		if len(missing) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("events never seen: %q; seen:\n%s", missing, seen)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A project given on the command line is opened before Wails calls startup: its first snapshot and its watcher
// run from then on. What they report before the window is up reaches the window once it is, and what they report
// while it comes up does not race with it (run with -race).
func TestProjectGivenAtStartReportsToTheWindow(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n"), 0o644)
	svc, err := newServices(Options{Root: dir, RecentFile: filepath.Join(t.TempDir(), "recent.json")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		svc.workspaces.CloseAll() // the background first snapshot stops before its directory goes
	})
	// The window is slow to come up: the first snapshot is done before it does.
	deadline := time.Now().Add(20 * time.Second)
	for {
		out, err := svc.Tools.Call(cur(t, svc), "list_snapshots", `{}`)
		if err == nil && strings.Contains(out, `"id"`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the first snapshot never appeared: %s %v", out, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	rec := &allEvents{}
	// Changes on disk keep coming while the window starts.
	stop := make(chan struct{})
	wrote := make(chan struct{})
	go func() {
		defer close(wrote)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			os.WriteFile(filepath.Join(dir, "busy.txt"), []byte(strings.Repeat("x", i)), 0o644)
			time.Sleep(time.Millisecond)
		}
	}()
	time.Sleep(50 * time.Millisecond)
	svc.start(context.Background(), rec.emit)
	os.WriteFile(filepath.Join(dir, "after.txt"), []byte("x"), 0o644)
	rec.waitFor(t, EventSnapshot+" done", EventFsChanges+" after.txt")
	close(stop)
	<-wrote
}
