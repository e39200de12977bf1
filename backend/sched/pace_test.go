package sched

import (
	"context"
	"testing"
	"time"
)

// A search pauses only for Foreground work of another lane: not for its own lane's, not for other lanes'
// searches.
func TestPaceOnlyForOtherLanesForeground(t *testing.T) {
	for _, tc := range []struct {
		name       string
		foreground []string // lanes with Foreground work (an edit)
		searching  []string // lanes with a search running besides the one pacing
		wantPause  bool
	}{
		{"idle", nil, nil, false},
		{"other lane edits", []string{"b"}, nil, true},
		{"own lane edits", []string{"a"}, nil, false},
		{"own and other lane edit", []string{"a", "b"}, nil, true},
		{"other lane searches", nil, []string{"b"}, false},
		{"other lanes search, own lane edits", []string{"a"}, []string{"b", "c"}, false},
		{"two other lanes edit", []string{"b", "c", "c"}, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := New()
			s.maxPace = never
			lanes := openLanes(s, "a", "b", "c")
			defer lanes["a"].Search()()
			for _, name := range tc.searching {
				defer lanes[name].Search()()
			}
			ends := foreground(lanes, tc.foreground)
			p := start("Pace", func() { lanes["a"].Pace(context.Background()) })
			if tc.wantPause {
				p.held(t, lanes["a"].Pausing, "while another lane's edit runs")
				for _, end := range ends[:len(ends)-1] {
					end()
					p.stays(t, time.Millisecond, "while another lane's edit still runs")
				}
				ends[len(ends)-1]()
			}
			p.returns(t)
			for _, end := range ends {
				end()
			}
			if lanes["a"].Pausing() {
				t.Fatal("Pausing after Pace returned")
			}
		})
	}
}

// Every event that ends a pause ends it: the other lane's edit ending, the context ending, the pause reaching
// MaxPace.
func TestPaceWakes(t *testing.T) {
	for _, tc := range []struct {
		name     string
		maxPace  time.Duration
		wake     func(end func(), cancel context.CancelFunc)
		wantEagr bool // the lane's searches then go on unpaused for a while
	}{
		{"edit ends", never, func(end func(), _ context.CancelFunc) { end() }, false},
		{"context ends", never, func(_ func(), cancel context.CancelFunc) { cancel() }, false},
		{"max pace", time.Millisecond, func(func(), context.CancelFunc) {}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := New()
			s.maxPace = tc.maxPace
			a, b := s.Lane("a"), s.Lane("b")
			end := b.Foreground()
			defer end()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			p := start("Pace", func() { a.Pace(ctx) })
			p.reached(t, a.Pausing)
			tc.wake(end, cancel)
			p.returns(t)
			if eager := time.Now().UnixNano() < a.eager.Load(); eager != tc.wantEagr {
				t.Fatalf("eager after the pause: %v, want %v", eager, tc.wantEagr)
			}
		})
	}
}

// After a pause that reached MaxPace the lane's searches go on unpaused, however long the other lane's work
// lasts; once that spell is over they pause again.
func TestPaceNeverStarves(t *testing.T) {
	s := New()
	s.maxPace = time.Millisecond
	a, b := s.Lane("a"), s.Lane("b")
	defer b.Foreground()()
	a.Pace(context.Background()) // reaches MaxPace
	s.maxPace = never
	a.eager.Store(time.Now().Add(never).UnixNano()) // a spell that cannot end during the test
	for range 100 {
		a.Pace(context.Background()) // returns at once, or the test hangs
	}
	a.eager.Store(0) // the spell is over
	ctx, cancel := context.WithCancel(context.Background())
	p := start("Pace after the spell", func() { a.Pace(ctx) })
	p.held(t, a.Pausing, "at once after the spell")
	cancel()
	p.returns(t)
}

// Many lanes editing and searching at once: every pause ends once the edits do, and the count of lanes with
// Foreground work comes back to zero.
func TestPaceManyLanesConcurrently(t *testing.T) {
	s := New()
	s.maxPace = never
	manyLanes(s, 3, 100, func(l *Lane) func() {
		return func() {
			l.Search()()
			l.Pace(context.Background())
		}
	})
	if n := s.urgent.Load(); n != 0 {
		t.Fatalf("%d lanes still counted with Foreground work", n)
	}
}

// A nil lane (one-shot use) never pauses.
func TestPaceNilLane(t *testing.T) {
	var l *Lane
	l.Search()()
	l.Pace(context.Background())
	if l.Pausing() {
		t.Fatal("a nil lane is pausing")
	}
}

// A pause outlasts the gap between two edits back to back: it ends only once no other lane's edit has started
// for settlePace (here never, so only the context ends it).
func TestPaceOutlastsGapsBetweenEdits(t *testing.T) {
	s := New()
	s.maxPace, s.settle = never, never
	a, b := s.Lane("a"), s.Lane("b")
	end := b.Foreground()
	ctx, cancel := context.WithCancel(context.Background())
	p := start("Pace", func() { a.Pace(ctx) })
	p.held(t, a.Pausing, "while another lane's edit runs")
	for range 3 {
		end()
		end = b.Foreground()
	}
	end()
	p.stays(t, 5*time.Millisecond, "in the gap between two edits")
	cancel()
	p.returns(t)
}
