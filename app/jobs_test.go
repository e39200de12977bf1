package app

import (
	"reflect"
	"sync"
	"testing"
	"time"
)

// A job printing line after line is one report per interval, naming every job that changed, and a change after a
// report is reported again: the window reads on from where it got to, so nothing is missed and it is not flooded.
func TestJobNotifierCoalesces(t *testing.T) {
	var mu sync.Mutex
	var got []JobsChanged
	sent := make(chan struct{}, 10)
	n := &jobNotifier{every: 50 * time.Millisecond, emit: func(name string, data any) {
		if name != EventJobs {
			t.Errorf("event %q", name)
		}
		mu.Lock()
		got = append(got, data.(JobsChanged))
		mu.Unlock()
		sent <- struct{}{}
	}}
	for range 1000 {
		n.note("p-1", "/p", "2")
		n.note("p-1", "/p", "1")
	}
	n.note("q-2", "/q", "1")
	<-sent
	<-sent
	mu.Lock()
	want := []JobsChanged{{Workspace: "p-1", Root: "/p", IDs: []string{"1", "2"}}, {Workspace: "q-2", Root: "/q", IDs: []string{"1"}}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("first reports %+v, want %+v", got, want)
	}
	got = nil
	mu.Unlock()

	n.note("p-1", "/p", "3")
	select {
	case <-sent:
	case <-time.After(5 * time.Second):
		t.Fatal("a change after a report was not reported")
	}
	mu.Lock()
	defer mu.Unlock()
	if !reflect.DeepEqual(got, []JobsChanged{{Workspace: "p-1", Root: "/p", IDs: []string{"3"}}}) {
		t.Fatalf("second report %+v", got)
	}
}
