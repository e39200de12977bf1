package sched

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"
)

// Background work waits only for foreground work of its own lane; another workspace's search never holds it.
func TestWaitOnlyForOwnLane(t *testing.T) {
	for _, tc := range []struct {
		name      string
		busy      []string // lanes with a search running
		stop      bool     // a caller waits for the work's lock
		wantWaits bool
	}{
		{"idle", nil, false, false},
		{"own lane busy", []string{"a"}, false, true},
		{"other lane busy", []string{"b"}, false, false},
		{"both busy", []string{"a", "b"}, false, true},
		{"own lane busy, lock wanted", []string{"a"}, true, false},
		{"other lanes busy", []string{"b", "c", "b"}, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lanes := openLanes(New(), "a", "b", "c")
			ends := foreground(lanes, tc.busy)
			var stop Count
			if tc.stop {
				stop.Add(1)
			}
			y := &Yielder{Lane: lanes["a"], MaxWait: never, Stop: &stop}
			w := start("Wait", func() { y.Wait(context.Background()) })
			if tc.wantWaits {
				w.held(t, y.Waiting, "while a search of its own lane runs")
				for _, end := range ends {
					end()
				}
			}
			w.returns(t)
			for _, end := range ends {
				end()
			}
		})
	}
}

// Every event that ends a wait wakes it: the lane's last search ending, a caller wanting the lock, the context
// ending, the wait reaching MaxWait.
func TestWaitWakes(t *testing.T) {
	for _, tc := range []struct {
		name    string
		maxWait time.Duration
		wake    func(end func(), stop *Count, cancel context.CancelFunc)
	}{
		{"search ends", never, func(end func(), _ *Count, _ context.CancelFunc) { end() }},
		{"lock wanted", never, func(_ func(), stop *Count, _ context.CancelFunc) { stop.Add(1) }},
		{"context ends", never, func(_ func(), _ *Count, cancel context.CancelFunc) { cancel() }},
		{"max wait", time.Millisecond, func(func(), *Count, context.CancelFunc) {}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := New().Lane("a")
			end := l.Foreground()
			defer end()
			var stop Count
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			y := &Yielder{Lane: l, MaxWait: tc.maxWait, Stop: &stop}
			w := start("Wait", func() { y.Wait(ctx) })
			w.reached(t, y.Waiting)
			tc.wake(end, &stop, cancel)
			w.returns(t)
		})
	}
}

// Two searches: background work waits until the second ends too.
func TestWaitForEverySearch(t *testing.T) {
	l := New().Lane("a")
	end1, end2 := l.Foreground(), l.Foreground()
	y := &Yielder{Lane: l, MaxWait: never}
	w := start("Wait", func() { y.Wait(context.Background()) })
	w.held(t, y.Waiting, "while two searches run")
	end1()
	end1() // ending twice counts once
	w.held(t, func() bool { return l.fg.Load() == 1 }, "while a second search runs")
	end2()
	w.returns(t)
}

// A wait that reached MaxWait is not followed by another at once (the work is never starved); Reset forgets it.
func TestMaxWaitThenEager(t *testing.T) {
	l := New().Lane("a")
	defer l.Foreground()()
	y := &Yielder{Lane: l, MaxWait: time.Millisecond}
	y.Wait(context.Background()) // reaches MaxWait
	y.MaxWait = never            // the eager spell is a fifth of the wait that ended: still running
	y.eager.Store(time.Now().Add(never).UnixNano())
	y.Wait(context.Background()) // returns at once, or the test hangs
	y.Reset()
	ctx, cancel := context.WithCancel(context.Background())
	w := start("Wait after Reset", func() { y.Wait(ctx) })
	w.held(t, y.Waiting, "at once after Reset")
	cancel()
	w.returns(t)
}

// recorder records the pauses and resumes While makes, and hands each on a channel.
type recorder struct {
	mu     sync.Mutex
	events []string
	ch     chan string
}

func newRecorder() *recorder { return &recorder{ch: make(chan string, 16)} }

func (r *recorder) pause()  { r.add("pause") }
func (r *recorder) resume() { r.add("resume") }
func (r *recorder) add(e string) {
	r.mu.Lock()
	r.events = append(r.events, e)
	r.mu.Unlock()
	r.ch <- e
}

func (r *recorder) next(t *testing.T, want string) {
	t.Helper()
	select {
	case got := <-r.ch:
		if got != want {
			t.Fatalf("got %s, want %s", got, want)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("no %s", want)
	}
}

// A child process of background work is paused only by a search of its own lane, and always left resumed.
func TestWhilePausesOnlyForOwnLane(t *testing.T) {
	for _, tc := range []struct {
		name string
		busy []string
		stop bool
		want []string
	}{
		{"idle", nil, false, nil},
		{"own lane busy", []string{"a"}, false, []string{"pause", "resume"}},
		{"other lane busy", []string{"b"}, false, nil},
		{"both busy", []string{"b", "a"}, false, []string{"pause", "resume"}},
		{"own lane busy, lock wanted", []string{"a"}, true, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lanes := openLanes(New(), "a", "b")
			for _, end := range foreground(lanes, tc.busy) {
				defer end()
			}
			var stop Count
			if tc.stop {
				stop.Add(1)
			}
			y := &Yielder{Lane: lanes["a"], MaxWait: never, Stop: &stop}
			done := make(chan struct{})
			close(done) // While looks at the lanes once, then returns
			r := newRecorder()
			y.While(done, r.pause, r.resume)
			if !slices.Equal(r.events, tc.want) {
				t.Fatalf("events %v, want %v", r.events, tc.want)
			}
		})
	}
}

// While follows its lane: a search starting pauses the child, its end resumes it, a caller wanting the lock
// resumes it, and a pause that reached MaxWait is lifted, then taken up again once the eager spell ends.
func TestWhileWakes(t *testing.T) {
	l := New().Lane("a")
	var stop Count
	y := &Yielder{Lane: l, MaxWait: never, Stop: &stop}
	r := newRecorder()
	done := make(chan struct{})
	w := start("While", func() { y.While(done, r.pause, r.resume) })

	end := l.Foreground()
	r.next(t, "pause")
	end()
	r.next(t, "resume")
	end = l.Foreground()
	r.next(t, "pause")
	stop.Add(1)
	r.next(t, "resume")
	stop.Add(-1)
	r.next(t, "pause")
	close(done)
	r.next(t, "resume")
	w.returns(t)
	end()
}

func TestWhileMaxWait(t *testing.T) {
	l := New().Lane("a")
	defer l.Foreground()()
	y := &Yielder{Lane: l, MaxWait: time.Millisecond}
	r := newRecorder()
	done := make(chan struct{})
	w := start("While", func() { y.While(done, r.pause, r.resume) })
	r.next(t, "pause")
	r.next(t, "resume") // MaxWait reached: the child runs for a while though the search goes on
	r.next(t, "pause")  // the eager spell ended: it yields again
	close(done)
	r.next(t, "resume")
	w.returns(t)
}

// A search waiting for background work steps aside: the work no longer waits for it.
func TestAside(t *testing.T) {
	l := New().Lane("a")
	end := l.Foreground()
	defer end()
	y := &Yielder{Lane: l, MaxWait: never}
	back := l.Aside()
	y.Wait(context.Background()) // returns at once, or the test hangs
	back()
	back()
	if !l.Busy() {
		t.Fatal("the search came back but the lane is idle")
	}
	end()
	if l.Busy() {
		t.Fatal("the lane is busy after its only search ended")
	}
}

// A nil lane (one-shot use) shares nothing: nothing waits, nothing pauses.
func TestNilLane(t *testing.T) {
	var l *Lane
	l.Foreground()()
	l.Aside()()
	l.Close()
	y := &Yielder{}
	y.Wait(context.Background())
	done := make(chan struct{})
	close(done)
	r := newRecorder()
	y.While(done, r.pause, r.resume)
	if len(r.events) != 0 || l.Busy() {
		t.Fatalf("a nil lane paused: %v", r.events)
	}
}

// The scheduler knows its open lanes and which are busy; a closed lane is gone.
func TestSchedulerLanes(t *testing.T) {
	s := New()
	a, b := s.Lane("a"), s.Lane("b")
	end := b.Foreground()
	if busy, open := s.Lanes(); !slices.Equal(busy, []string{"b"}) || open != 2 {
		t.Fatalf("busy %v open %d", busy, open)
	}
	end()
	a.Close()
	b.Close()
	if busy, open := s.Lanes(); len(busy) != 0 || open != 0 {
		t.Fatalf("after closing: busy %v open %d", busy, open)
	}
}

// Many lanes, each with searches and background work at once: every wait ends once its own lane is idle.
func TestManyLanesConcurrently(t *testing.T) {
	s := New()
	manyLanes(s, 4, 50, func(l *Lane) func() {
		y := &Yielder{Lane: l, MaxWait: never}
		return func() { y.Wait(context.Background()) }
	})
	if _, open := s.Lanes(); open != 0 {
		t.Fatalf("%d lanes left open", open)
	}
}

func (s *Scheduler) waiters() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.waiting
}

// While n lanes have foreground work, each may hold 1/n of the CPUs' slots, at least one; alone, all of them.
// The lane takes its share at once, and one more slot waits until one of its own is released.
func TestSlotsAreShared(t *testing.T) {
	for _, tc := range []struct {
		cpus   int
		busy   int // lanes with foreground work, the one taking slots among them
		wanted int // its share
	}{
		{4, 1, 4},
		{4, 2, 2},
		{4, 3, 1},
		{2, 2, 1},
		{2, 5, 1},
		{1, 1, 1},
		{8, 3, 2},
	} {
		t.Run(fmt.Sprintf("%d cpus, %d busy lanes", tc.cpus, tc.busy), func(t *testing.T) {
			s := NewWithCPUs(tc.cpus)
			lane := s.Lane("searching")
			defer lane.Foreground()()
			for range tc.busy - 1 {
				defer s.Lane("other").Foreground()()
			}
			var held []func()
			took := make(chan struct{})
			go func() {
				for range tc.wanted {
					held = append(held, lane.Slot())
				}
				close(took)
			}()
			within(t, took, "taking the lane's share")
			more := make(chan func())
			go func() { more <- lane.Slot() }()
			waitUntil(t, func() bool { return s.waiters() == 1 }, "the slot beyond the share to wait")
			select {
			case <-more:
				t.Fatal("a slot beyond the lane's share was given")
			default:
			}
			held[0]()
			held[0]() // twice: released once
			select {
			case release := <-more:
				release()
			case <-time.After(30 * time.Second):
				t.Fatal("a released slot did not wake the waiter")
			}
			for _, release := range held[1:] {
				release()
			}
		})
	}
}

// When another workspace's foreground work ends, a lane's waiting slot is given at once: its share grew.
func TestSlotShareGrowsWhenAnotherLaneIsIdle(t *testing.T) {
	s := NewWithCPUs(2)
	a, b := s.Lane("a"), s.Lane("b")
	defer a.Foreground()()
	endB := b.Foreground()
	first := a.Slot()
	defer first()
	got := make(chan func())
	go func() { got <- a.Slot() }()
	waitUntil(t, func() bool { return s.waiters() == 1 }, "the second slot to wait")
	endB()
	select {
	case release := <-got:
		release()
	case <-time.After(30 * time.Second):
		t.Fatal("the other lane went idle but the waiting slot was not given")
	}
	var none *Lane
	none.Slot()() // a nil lane takes no slot
}
