package app

import (
	"strings"
	"sync"
	"time"
)

// streamer batches a call's live output into events: at most one per stream every flushEvery, and no more than
// streamLimit bytes in all, so a command printing gigabytes cannot flood the window (the result keeps its own
// head and tail).
type streamer struct {
	mu      sync.Mutex
	id      string
	emit    func(ToolOutput)
	pending map[string]*strings.Builder
	sent    int
	capped  bool
	timer   *time.Timer
}

const (
	flushEvery  = 50 * time.Millisecond
	streamLimit = 4 << 20
)

func newStreamer(id string, emit func(ToolOutput)) *streamer {
	return &streamer{id: id, emit: emit, pending: map[string]*strings.Builder{}}
}

// write takes output as the tool produces it.
func (s *streamer) write(stream string, chunk []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.capped {
		return
	}
	if s.sent+len(chunk) > streamLimit {
		chunk = chunk[:max(0, streamLimit-s.sent)]
		s.capped = true
	}
	s.sent += len(chunk)
	b := s.pending[stream]
	if b == nil {
		b = &strings.Builder{}
		s.pending[stream] = b
	}
	b.Write(chunk)
	if s.capped {
		b.WriteString("\n… live output stops here; the result keeps the beginning and the end …\n")
	}
	if s.timer == nil {
		s.timer = time.AfterFunc(flushEvery, s.flush)
	}
}

// flush sends what is pending; close flushes for the last time.
func (s *streamer) flush() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.timer = nil
	for _, stream := range []string{streamStatus, "stdout", "stderr"} {
		if b := s.pending[stream]; b != nil && b.Len() > 0 {
			s.emit(ToolOutput{ID: s.id, Stream: stream, Data: b.String()})
			b.Reset()
		}
	}
}

func (s *streamer) close() {
	s.mu.Lock()
	if s.timer != nil {
		s.timer.Stop()
	}
	s.mu.Unlock()
	s.flush()
}
