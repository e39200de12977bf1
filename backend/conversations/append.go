package conversations

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/rooted-dev/rooted/backend/configfile"
)

// logState is what Append knows of a log it has opened: where records go and what the next events may name.
type logState struct {
	good          int64 // end of the last whole record
	since         int64 // bytes of records after the last snapshot (or the start)
	snap          int64 // bytes of that snapshot
	items, msgs   int
	meta          Meta
	blobBytes     int64 // bytes of stored contents written since the last compaction
	metaCurrent   bool  // the meta file says what meta says
	compactFailed bool  // the last compaction failed: not tried again until the store is made again
}

// Append writes events to the conversation id, creating it (or moving it from the old format) first, and returns
// its metadata. The whole batch is checked before anything is written, and written with one write(2) followed by
// fsync: when Append returns nil every event is on disk; when it returns an error none is (the log is cut back to
// where it was), so the caller sends the same events again.
func (s *Store) Append(id string, events []Event) (Meta, error) {
	f, err := s.files(id)
	if err != nil {
		return Meta{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st, err := s.open(id, f)
	if err != nil {
		return Meta{}, err
	}
	now := s.now()
	items, msgs, meta := st.items, st.msgs, st.meta
	var buf []byte
	var wrote int64
	for i := range events {
		e := events[i]
		if err := e.check(items, msgs); err != nil {
			return Meta{}, err
		}
		if err := e.extract(f.blobs, &wrote); err != nil {
			return Meta{}, fmt.Errorf("storing the content of a %s event: %w", e.T, err)
		}
		e.At = now
		switch e.T {
		case "title":
			meta.Title = e.Title
		case "state":
			if u, ok := e.State["usage"]; ok {
				meta.Spent = spentOf(u)
			}
		case "item":
			items = max(items, e.I+1)
		case "items":
			items = e.N
		case "messages":
			msgs = e.From + len(e.Messages)
		case "snapshot":
			items, msgs = len(e.Body.Items), len(e.Body.Messages)
			meta.Spent = spentOf(e.Body.State["usage"])
		}
		payload, err := marshal(e)
		if err != nil {
			return Meta{}, err
		}
		buf = frame(buf, payload)
	}
	if wrote > 0 {
		if err := configfile.SyncDir(f.blobs.dir); err != nil {
			return Meta{}, err
		}
	}
	if err := st.write(f.log, buf); err != nil {
		delete(s.logs, id) // read again from disk next time
		return Meta{}, err
	}
	st.items, st.msgs = items, msgs
	st.since += int64(len(buf))
	st.blobBytes += wrote
	meta.Updated, meta.Count = now, items
	if meta.Title != st.meta.Title || !meta.Spent.equal(st.meta.Spent) {
		st.metaCurrent = false
	}
	st.meta = meta
	if !st.metaCurrent && s.writeMeta(f, meta) == nil {
		st.metaCurrent = true // a list falls back to the log while it is not
	}
	// A streamed answer past BlobMin is stored again at every save, so stored contents grow too: a compaction
	// also removes those no record names any more.
	if (st.since > s.CompactAfter && st.since > 2*st.snap || st.blobBytes > 8*s.CompactAfter) && !st.compactFailed {
		if err := s.compact(id, f, st); err != nil {
			st.compactFailed = true // the log is whole; it is only longer than it needs to be
		}
	}
	return meta, nil
}

// write appends buf to the log and syncs it, or cuts the log back to where it was.
func (st *logState) write(path string, buf []byte) error {
	file, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	defer file.Close()
	if _, err := file.WriteAt(buf, st.good); err != nil {
		_ = file.Truncate(st.good)
		return err
	}
	if err := file.Sync(); err != nil {
		_ = file.Truncate(st.good)
		return err
	}
	st.good += int64(len(buf))
	return nil
}

// open returns the state of the conversation's log, making the log when there is none: from the old format's
// file when there is one, else empty. A torn record at the end of an existing log is cut off; a damaged one
// followed by more is kept aside in a file of its own before it is cut, so nothing readable is thrown away.
func (s *Store) open(id string, f files) (*logState, error) {
	if st := s.logs[id]; st != nil {
		return st, nil
	}
	c, sc, err := s.load(id)
	switch {
	case errors.Is(err, ErrNotFound):
		now := s.now()
		c = Conversation{Meta: Meta{ID: id, Title: "New conversation", Created: now, Updated: now}}
		if err := s.create(f, Event{T: "title", Title: c.Title, At: now}); err != nil {
			return nil, err
		}
		sc = scan{good: int64(len(logHeader))}
	case err != nil:
		return nil, err
	case sc.good == 0: // the old format, or a log whose header was torn
		if err := s.migrate(f, c); err != nil {
			return nil, fmt.Errorf("moving conversation %s to its log: %w", id, err)
		}
		if sc, err = readLogFile(f.log); err != nil {
			return nil, err
		}
		_ = os.Remove(f.legacy) // the log has it all; while both exist the log is read
	case sc.good < sc.size:
		if err := cutTail(f.log, sc); err != nil {
			return nil, err
		}
	}
	st := &logState{good: sc.good, since: sc.good, items: len(c.Body.Items), msgs: len(c.Body.Messages), meta: c.Meta}
	s.logs[id] = st
	return st, nil
}

// create writes a new log holding first, through a temporary file, so a log on disk always has its header.
func (s *Store) create(f files, first ...Event) error {
	buf := []byte(logHeader)
	for _, e := range first {
		payload, err := marshal(e)
		if err != nil {
			return err
		}
		buf = frame(buf, payload)
	}
	return configfile.Write(f.log, buf)
}

// migrate writes the log of a conversation read from the old format: one snapshot record.
func (s *Store) migrate(f files, c Conversation) error {
	snap := Event{T: "snapshot", Title: c.Title, Created: c.Created, At: c.Updated, Body: &c.Body}
	var wrote int64
	if err := snap.extract(f.blobs, &wrote); err != nil {
		return err
	}
	if wrote > 0 {
		if err := configfile.SyncDir(f.blobs.dir); err != nil {
			return err
		}
	}
	if err := s.create(f, snap); err != nil {
		return err
	}
	return s.writeMeta(f, c.Meta)
}

// compact rewrites the log as one snapshot record of what it holds now.
func (s *Store) compact(id string, f files, st *logState) error {
	c, _, err := s.load(id)
	if err != nil {
		return err
	}
	snap := Event{T: "snapshot", Title: c.Title, Created: c.Created, At: c.Updated, Body: &c.Body}
	if err := s.create(f, snap); err != nil {
		return err
	}
	info, err := os.Stat(f.log)
	if err != nil {
		return err
	}
	st.good, st.since, st.snap, st.blobBytes = info.Size(), 0, info.Size(), 0
	return f.blobs.keepOnly(snap.Body)
}

// cutTail drops what follows the last whole record, keeping it aside first when it is damage rather than a tear.
func cutTail(path string, sc scan) error {
	if sc.damaged {
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		aside := fmt.Sprintf("%s.damaged-%d", path, time.Now().UnixNano())
		if err := os.WriteFile(aside, b[sc.good:], 0o600); err != nil {
			return err
		}
	}
	return os.Truncate(path, sc.good)
}

// extract moves the long strings of e to the blob store.
func (e *Event) extract(b blobs, wrote *int64) error {
	var err error
	one := func(r json.RawMessage) json.RawMessage {
		if err != nil || r == nil {
			return r
		}
		var out json.RawMessage
		out, err = b.extract(r, wrote)
		return out
	}
	many := func(rs []json.RawMessage) []json.RawMessage {
		out := make([]json.RawMessage, len(rs))
		for i, r := range rs {
			out[i] = one(r)
		}
		return out
	}
	e.Item = one(e.Item)
	if e.Messages != nil {
		e.Messages = many(e.Messages)
	}
	e.Rewound = one(e.Rewound)
	if e.State != nil {
		st := make(map[string]json.RawMessage, len(e.State))
		for k, v := range e.State {
			st[k] = one(v)
		}
		e.State = st
	}
	if e.Body != nil {
		body := Body{Items: many(e.Body.Items), Messages: many(e.Body.Messages), Rewound: many(e.Body.Rewound), State: map[string]json.RawMessage{}}
		for k, v := range e.Body.State {
			body.State[k] = one(v)
		}
		e.Body = &body
	}
	return err
}

// containsFold says whether b holds needle (already lower case), ignoring ASCII and Unicode case.
func containsFold(b, needle []byte) bool {
	return bytes.Contains(bytes.ToLower(b), needle)
}
