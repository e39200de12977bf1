package sched

import (
	"context"
	"time"
)

// MaxPace bounds one pause of a search for other lanes' Foreground work. An edit with its snapshot takes a few
// milliseconds, so a pause usually ends with it; work that runs longer (edits back to back) lets the search go
// on unpaused for a tenth of MaxPace (eagerPace) after each pause that reached it, so a search beside it still
// ends, at about a tenth of its speed alone.
const MaxPace = 50 * time.Millisecond

// eagerPace is the share of MaxPace a search then runs unpaused. Every edit that overlaps such a spell shares
// the machine with the search again: with a fifth, edits back to back beside a storm took 1.2-1.25 times their
// time alone on a loaded 2-core machine (BenchmarkEditBesideSearchStorm), with a tenth 1.06-1.08.
const eagerPace = 10

// settlePace is how long no other lane must have had Foreground work before a paused search goes on: edits back
// to back leave gaps of a fraction of a millisecond between them (the next call being decoded), and waking every
// paused step of a storm's searches in each gap put them back beside the next edit.
const settlePace = 2 * time.Millisecond

// WithMaxPace sets how long one pause of a search lasts at most (MaxPace unless set), before any lane is used;
// it returns s.
func (s *Scheduler) WithMaxPace(d time.Duration) *Scheduler {
	s.maxPace = d
	return s
}

// Pace is what a search calls at its steps (between files, before listing a folder): while another lane has
// Foreground work, it waits until that work has ended (and no other has started for settlePace), ctx ends, or the
// wait reaches MaxPace (after which the lane's searches do not pause for a tenth of MaxPace). With no such work it returns at once, after two atomic loads:
// it is cheap enough to call for every file. On a nil lane it returns at once.
//
// Why pause rather than only share the CPUs (Slot): beside a storm of searches in another workspace, an edit with
// its snapshot still took 3 to 4 times as long with the slots alone (BenchmarkEditBesideSearchStorm, backend/
// workspace). A search holding one slot still shares the Go runtime's run queues with the edit, its walk's
// read-ahead and its allocations' garbage collection run outside any slot, and the machine has other work; a
// paused search adds none of that.
func (l *Lane) Pace(ctx context.Context) {
	if l == nil || l.s == nil || l.others() <= 0 {
		return
	}
	s := l.s
	if time.Now().UnixNano() < l.eager.Load() {
		return
	}
	l.pausing.Add(1)
	l.pauses.Add(1)
	defer l.pausing.Add(-1)
	limit := time.NewTimer(s.maxPace)
	defer limit.Stop()
	quiet := time.NewTimer(s.settle) // armed while no other lane has Foreground work
	quiet.Stop()
	defer quiet.Stop()
	armed := false
	for {
		n, changed := s.urgent.Watch()
		if free := n-l.own() <= 0; free != armed {
			if free {
				quiet.Reset(s.settle)
			} else {
				quiet.Stop()
			}
			armed = free
		}
		select {
		case <-changed:
		case <-quiet.C:
			return
		case <-ctx.Done():
			return
		case <-limit.C:
			l.eager.Store(time.Now().Add(s.maxPace / eagerPace).UnixNano())
			return
		}
	}
}

// Holding reports whether Pace would pause now: work that cannot pause halfway (a walk's listing of a folder
// ahead of its visit) is better not started.
func (l *Lane) Holding() bool {
	return l != nil && l.s != nil && l.others() > 0 && time.Now().UnixNano() >= l.eager.Load()
}

// others is how many other lanes have Foreground work now (it may be off by one for a moment while a lane's
// work starts or ends: a pause then ends at the next change, or a step goes unpaused).
func (l *Lane) others() int { return l.s.urgent.Load() - l.own() }

// own is 1 while the lane itself has Foreground work, which its own searches do not pause for.
func (l *Lane) own() int {
	if l.urgent.Load() > 0 {
		return 1
	}
	return 0
}

// Pausing reports whether one of the lane's searches is in Pace, paused for another lane's work.
func (l *Lane) Pausing() bool { return l != nil && l.pausing.Load() > 0 }

// Pauses is how many times the lane's searches have paused for other lanes' work.
func (l *Lane) Pauses() int64 {
	if l == nil {
		return 0
	}
	return l.pauses.Load()
}
