package app

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/testtree"
)

// events records what the services emit, as the window would receive it.
type events struct {
	mu  sync.Mutex
	got []FsChanges
}

func (e *events) emit(name string, data any) {
	if name != EventFsChanges {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.got = append(e.got, data.(FsChanges))
}

// wait returns the ops reported per path once every path in want was seen.
func (e *events) wait(t *testing.T, want ...string) map[string]string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		seen := map[string]string{}
		e.mu.Lock()
		for _, b := range e.got {
			for _, c := range b.Changes {
				seen[c.Path] += c.Op.String() + " "
			}
		}
		e.mu.Unlock()
		all := true
		for _, p := range want {
			if seen[p] == "" {
				all = false
			}
		}
		if all {
			return seen
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited for changes to %v; saw %v", want, seen)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// openServices starts the window's services with no project open, on cache and settings folders of the test's
// own; the caller opens whichever project folders it means, when its test needs them opened.
func openServices(t testing.TB) *services {
	t.Helper()
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	svc, err := newServices(Options{RecentFile: filepath.Join(t.TempDir(), "recent.json")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		svc.workspaces.CloseAll() // the background first snapshot stops before its directory goes
	})
	return svc
}

// openProject opens a git repository of files, committed, as the window opens a project, on services of its own
// (openServices): the user's settings file, at svc.settings.Path(), is not written yet.
func openProject(tb testing.TB, files map[string]string) (*services, Project) {
	tb.Helper()
	root := testtree.Repo(tb, files)
	svc := openServices(tb)
	p, err := svc.Projects.Open(root)
	if err != nil {
		tb.Fatal(err)
	}
	return svc, p
}

// Changes made by other programs reach the window as fs:changes events naming the paths; ignored folders stay silent.
func TestChangesOnDiskReachTheWindow(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("node_modules/\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n"), 0o644)
	svc := openServices(t)
	rec := &events{}
	svc.start(context.Background(), rec.emit)
	if _, err := svc.Projects.Open(dir); err != nil {
		t.Fatal(err)
	}
	if st := svc.Projects.Watch(cur(t, svc)); !st.Active || st.Degraded || st.Watched != 1 {
		t.Fatalf("watch status after open: %+v", st)
	}
	os.MkdirAll(filepath.Join(dir, "node_modules", "left-pad"), 0o755)
	os.WriteFile(filepath.Join(dir, "node_modules", "left-pad", "index.js"), []byte("x"), 0o644)
	os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main // edited\n"), 0o644)
	os.MkdirAll(filepath.Join(dir, "cmd", "tool"), 0o755)
	os.WriteFile(filepath.Join(dir, "cmd", "tool", "main.go"), []byte("package main\n"), 0o644)
	seen := rec.wait(t, "main.go", "cmd/tool/main.go")
	if !strings.Contains(seen["main.go"], "write") || !strings.Contains(seen["cmd/tool/main.go"], "create") {
		t.Errorf("ops: %v", seen)
	}
	for p := range seen {
		if strings.HasPrefix(p, "node_modules") {
			t.Errorf("ignored path reported: %s %s", p, seen[p])
		}
	}
	rec.mu.Lock()
	root := rec.got[0].Root
	rec.mu.Unlock()
	if real, _ := filepath.EvalSymlinks(dir); root != dir && root != real {
		t.Errorf("batch root %q, want %q", root, dir)
	}
}

// The watcher feeds the stale-file check: an edit by another program that keeps the size and the mtime is still
// caught, and the agent's write is refused rather than silently overwriting it.
func TestWatcherFeedsStaleCheck(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "config.txt")
	os.WriteFile(file, []byte("port=8080\n"), 0o644)
	svc := openServices(t)
	rec := &events{}
	svc.start(context.Background(), rec.emit)
	if _, err := svc.Projects.Open(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Tools.Call(cur(t, svc), "read_file", `{"path":"config.txt"}`); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(file)
	os.WriteFile(file, []byte("port=9090\n"), 0o644) // the user's own edit, same size
	os.Chtimes(file, time.Time{}, fi.ModTime())      // and the same mtime, as within a coarse timestamp tick
	rec.wait(t, "config.txt")
	_, err := svc.Tools.Call(cur(t, svc), "write_file", `{"path":"config.txt","content":"port=1\n"}`)
	if err == nil || !strings.Contains(err.Error(), `"stale_file"`) {
		t.Fatalf("write over an unseen edit: %v", err)
	}
	if b, _ := os.ReadFile(file); string(b) != "port=9090\n" {
		t.Errorf("the user's edit was lost: %q", b)
	}
	// Reading again makes the write possible, and Rooted's own write does not make the file stale later.
	svc.Tools.Call(cur(t, svc), "read_file", `{"path":"config.txt"}`)
	for _, content := range []string{"port=1\n", "port=2\n"} {
		args, _ := json.Marshal(map[string]string{"path": "config.txt", "content": content})
		if _, err := svc.Tools.Call(cur(t, svc), "write_file", string(args)); err != nil {
			t.Fatalf("write %q after reading: %v", content, err)
		}
		rec.wait(t, "config.txt")
	}
}

// Projects open side by side each keep their own watcher; closing one stops its watcher only, and closing all
// leaves no goroutine behind.
func TestClosingAProjectStopsOnlyItsWatcher(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	for _, d := range []string{a, b} {
		os.MkdirAll(filepath.Join(d, "src", "deep"), 0o755)
	}
	svc := openServices(t)
	before := runtime.NumGoroutine()
	rec := &events{}
	svc.start(context.Background(), rec.emit)
	ids := map[string]string{}
	for range 3 { // opening a folder open already focuses it: still two projects
		for _, d := range []string{a, b} {
			p, err := svc.Projects.Open(d)
			if err != nil {
				t.Fatal(err)
			}
			if ids[d] != "" && ids[d] != p.ID {
				t.Fatalf("%s opened again as %s, was %s", d, p.ID, ids[d])
			}
			ids[d] = p.ID
		}
	}
	if list := svc.Projects.List(); len(list) != 2 || list[0].ID != ids[a] || list[1].ID != ids[b] {
		t.Fatalf("open projects: %+v", list)
	}
	// Both are watched, each batch tagged with its project.
	os.WriteFile(filepath.Join(a, "src", "a1.txt"), []byte("x"), 0o644)
	os.WriteFile(filepath.Join(b, "src", "b1.txt"), []byte("x"), 0o644)
	rec.wait(t, "src/a1.txt")
	rec.wait(t, "src/b1.txt")
	rec.mu.Lock()
	for _, batch := range rec.got {
		for _, c := range batch.Changes {
			if want := map[string]string{"src/a1.txt": ids[a], "src/b1.txt": ids[b]}[c.Path]; want != "" && batch.Workspace != want {
				t.Errorf("%s reported as of project %q, want %q", c.Path, batch.Workspace, want)
			}
		}
	}
	rec.mu.Unlock()
	if err := svc.Projects.Close(ids[a]); err != nil {
		t.Fatal(err)
	}
	if err := svc.Projects.Close(ids[a]); err == nil || !strings.Contains(err.Error(), `"no_project"`) {
		t.Errorf("closing a closed project: %v", err)
	}
	// Only b is watched now: a change in a reaches nobody.
	os.WriteFile(filepath.Join(a, "src", "old.txt"), []byte("x"), 0o644)
	os.WriteFile(filepath.Join(b, "src", "new.txt"), []byte("x"), 0o644)
	rec.wait(t, "src/new.txt")
	rec.mu.Lock()
	for _, batch := range rec.got {
		for _, c := range batch.Changes {
			if c.Path == "src/old.txt" {
				t.Errorf("the closed project's watcher still reports: %+v", batch)
			}
		}
	}
	rec.mu.Unlock()
	svc.workspaces.CloseAll()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines before opening, %d after closing:\n%s", before, n, buf[:runtime.Stack(buf, true)])
	}
}
