package watch

import (
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"
)

// The first walk of the tree calls Yield between folders and waits for it (a search running, for the index), and
// the watcher it then returns covers every folder: a change in the deepest one is reported.
func TestFirstWalkYields(t *testing.T) {
	files := map[string]string{"a.txt": "a", "x/b.txt": "b", "x/y/c.txt": "c", "x/y/z/d.txt": "d", "w/e.txt": "e"}
	var calls atomic.Int32
	gate := make(chan struct{})
	returned := make(chan *env, 1)
	go func() {
		returned <- start(t, files, Options{Yield: func() {
			calls.Add(1)
			<-gate
		}})
	}()
	select {
	case <-returned:
		t.Fatal("New returned while Yield was waiting")
	case <-time.After(300 * time.Millisecond):
	}
	close(gate)
	e := <-returned
	if n := calls.Load(); n != 4 {
		t.Errorf("Yield was called %d times, want once per folder below the root (4)", n)
	}
	if st := e.w.Status(); st.Watched != 5 || st.Degraded {
		t.Errorf("status %+v, want the root and 4 folders watched", st)
	}
	if err := os.WriteFile(filepath.Join(e.dir, "x", "y", "z", "new.txt"), []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	e.expect(map[string]Op{"x/y/z/new.txt": Create})
}
