package workspace

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/rooted-dev/rooted/backend/testtree"
)

type countOut struct {
	Total         int `json:"total"`
	FilesSearched int `json:"files_searched"`
}

// A search in one workspace pauses for another workspace's edits and is never starved by them: while A edits in a
// loop (write_file, each backed up by a snapshot), B's searches still end, each finding what it finds alone; and
// they did pause for A's edits.
func TestSearchBesideEditLoopEnds(t *testing.T) {
	set := &Set{Options: Options{Live: true}}
	t.Cleanup(set.CloseAll)
	a := openLive(t, set, testtree.Dir(t, map[string]string{"f0.txt": "start\n"}))
	files := map[string]string{}
	for i := range 1500 {
		files[fmt.Sprintf("d%02d/f%d.txt", i%30, i)] = fmt.Sprintf("line %d\nneedle\nhaystack\n", i)
	}
	b := openLive(t, set, testtree.Dir(t, files))
	const query = `{"query": "needle", "output": "count", "limit": 5000}`
	alone := call[countOut](t, b, "search_files", query)
	if alone.Total != 1500 {
		t.Fatalf("alone: %+v", alone)
	}
	call[map[string]any](t, a, "read_file", `{"path": "f0.txt"}`)

	ctx, stop := context.WithCancel(context.Background())
	var edits sync.WaitGroup
	editing := make(chan struct{})
	started := sync.OnceFunc(func() { close(editing) })
	edits.Go(func() {
		defer started()
		for i := 0; ctx.Err() == nil; i++ {
			if i == 1 {
				started()
			}
			args := fmt.Sprintf(`{"path": "f0.txt", "content": "edit %d\n"}`, i)
			if _, e := a.Registry().Call(context.Background(), "write_file", []byte(args)); e != nil {
				t.Error(e)
				return
			}
		}
	})
	<-editing
	pausesBefore := b.lane.Pauses()
	for range 5 {
		if got := call[countOut](t, b, "search_files", query); got != alone {
			t.Errorf("beside the edits: %+v, alone %+v", got, alone)
		}
	}
	stop()
	edits.Wait()
	if b.lane.Pauses() == pausesBefore {
		t.Fatal("B's searches never paused for A's edits")
	}
}
