//go:build linux

package workspace

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/testtree"
)

// resources are what a workspace left open would show as: goroutines, file descriptors and inotify watches.
type resources struct{ goroutines, fds, watches int }

func (r resources) String() string {
	return fmt.Sprintf("%d goroutines, %d fds, %d inotify watches", r.goroutines, r.fds, r.watches)
}

func measure(t *testing.T) resources {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	r := resources{goroutines: runtime.NumGoroutine(), fds: len(ents)}
	for _, e := range ents {
		if target, _ := os.Readlink(filepath.Join("/proc/self/fd", e.Name())); target == "anon_inode:inotify" {
			r.watches += inotifyWatches(filepath.Join("/proc/self/fdinfo", e.Name()))
		}
	}
	return r
}

// inotifyWatches counts the watches of an inotify descriptor: a line "inotify wd:..." each in its fdinfo.
func inotifyWatches(fdinfo string) int {
	f, err := os.Open(fdinfo)
	if err != nil {
		return 0 // closed meanwhile
	}
	defer f.Close()
	n := 0
	for sc := bufio.NewScanner(f); sc.Scan(); {
		if strings.HasPrefix(sc.Text(), "inotify wd:") {
			n++
		}
	}
	return n
}

// Opening and closing 50 projects in a loop, each used (a search through its index, an edit with its snapshot)
// leaves no goroutine, file descriptor or inotify watch behind: Close ends everything a workspace started.
func TestOpenCloseLeaksNothing(t *testing.T) {
	set := &Set{Options: Options{Live: true}}
	t.Cleanup(set.CloseAll)
	dir := testtree.Dir(t, map[string]string{"a.txt": "needle\n", "sub/b.txt": "needle\n", "sub/deeper/c.txt": "c\n"})
	cycle := func(i int) {
		w := openLive(t, set, dir)
		eventually(t, "the watcher is up", func() bool { _, ok := w.Watch(); return ok })
		if got := call[searchOut](t, w, "search_files", `{"query": "needle"}`); !got.has("a.txt") {
			t.Fatalf("cycle %d: search %+v", i, got)
		}
		call[any](t, w, "read_file", `{"path": "a.txt"}`)
		call[any](t, w, "write_file", fmt.Sprintf(`{"path": "a.txt", "content": "needle %d\n"}`, i))
		if err := set.Close(w.ID()); err != nil {
			t.Fatal(err)
		}
	}
	cycle(0) // what a process sets up once (the sandbox probe, the runtime's own goroutines) is not a leak
	base := measure(t)
	for i := 1; i <= 50; i++ {
		cycle(i)
	}
	// Closing returns once the work has ended; the runtime may take a moment to retire an exited goroutine.
	var now resources
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if now = measure(t); now.goroutines <= base.goroutines && now.fds <= base.fds && now.watches <= base.watches {
			break
		}
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("after 50 projects opened and closed: %v, baseline %v\n%s", now, base, buf[:runtime.Stack(buf, true)])
		}
	}
	t.Logf("baseline %v; after 50 projects %v", base, now)
}
