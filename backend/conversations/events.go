package conversations

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"
)

// Event is one change to a conversation, as the window sends it and the log keeps it. T says which fields count:
//
//	"title"    Title: the conversation's title
//	"item"     I, Item: the item at index I is Item (I equal to the count appends it)
//	"items"    N: only the first N items stay (a rewind)
//	"messages" From, Messages: the model's messages from index From on are Messages
//	"state"    State: these top-level fields (usage, plan, halt...) take these values; null removes one
//	"rewound"  Rewound: what a rewind cut off, kept
//	"snapshot" Body: the whole conversation (a migration or a compaction starts the log with one)
//
// Items and messages are the window's to define; the store only reads an item's kind and text for export.
type Event struct {
	T        string                     `json:"t"`
	At       time.Time                  `json:"at,omitzero"`
	Created  time.Time                  `json:"created,omitzero"` // a snapshot's: when the conversation began
	Title    string                     `json:"title,omitempty"`
	I        int                        `json:"i,omitempty"`
	Item     json.RawMessage            `json:"item,omitempty"`
	N        int                        `json:"n,omitempty"`
	From     int                        `json:"from,omitempty"`
	Messages []json.RawMessage          `json:"messages,omitempty"`
	State    map[string]json.RawMessage `json:"state,omitempty"`
	Rewound  json.RawMessage            `json:"rewound,omitempty"`
	Body     *Body                      `json:"body,omitempty"`
}

// Body is a conversation as the window reads it: its items, the model's messages, what a rewind cut off, and the
// other top-level fields (usage, notes, plan, context, halt, planMode) as given.
type Body struct {
	Items    []json.RawMessage          `json:"items"`
	Messages []json.RawMessage          `json:"messages"`
	Rewound  []json.RawMessage          `json:"rewound,omitempty"`
	State    map[string]json.RawMessage `json:"state,omitempty"`
}

// ErrBadEvent refuses an event that does not apply: nothing of its batch is written.
var ErrBadEvent = errors.New("invalid conversation event")

// reserved are the top-level names a state event may not set: they have events of their own.
var reserved = map[string]bool{"items": true, "messages": true, "rewound": true, "state": true}

// check says whether e can be applied to a conversation of items items and msgs messages.
func (e *Event) check(items, msgs int) error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: %s: %s", ErrBadEvent, e.T, fmt.Sprintf(format, a...))
	}
	switch e.T {
	case "title":
		if e.Title == "" {
			return bad("empty title")
		}
	case "item":
		if e.I < 0 || e.I > items {
			return bad("index %d of %d items", e.I, items)
		}
		if !json.Valid(e.Item) || len(e.Item) == 0 || e.Item[0] != '{' {
			return bad("the item is not a JSON object")
		}
	case "items":
		if e.N < 0 || e.N > items {
			return bad("keep %d of %d items", e.N, items)
		}
	case "messages":
		if e.From < 0 || e.From > msgs {
			return bad("from %d of %d messages", e.From, msgs)
		}
		for _, m := range e.Messages {
			if !json.Valid(m) {
				return bad("a message is not JSON")
			}
		}
	case "state":
		for k, v := range e.State {
			if reserved[k] || !json.Valid(v) {
				return bad("field %q", k)
			}
		}
	case "rewound":
		if !json.Valid(e.Rewound) {
			return bad("not JSON")
		}
	case "snapshot":
		if e.Body == nil {
			return bad("no body")
		}
	default:
		return fmt.Errorf("%w: unknown kind %q", ErrBadEvent, e.T)
	}
	return nil
}

// conv is a conversation rebuilt from its log.
type conv struct {
	Meta
	Body
}

// apply changes c by e, which check accepted.
func (c *conv) apply(e *Event) {
	if !e.At.IsZero() {
		c.Updated = e.At
		if c.Created.IsZero() {
			c.Created = e.At
		}
	}
	switch e.T {
	case "title":
		c.Title = e.Title
	case "item":
		if e.I < len(c.Items) {
			c.Items[e.I] = e.Item
		} else {
			c.Items = append(c.Items, e.Item)
		}
	case "items":
		c.Items = c.Items[:min(e.N, len(c.Items))]
	case "messages":
		c.Messages = append(c.Messages[:min(e.From, len(c.Messages))], e.Messages...)
	case "state":
		if c.State == nil {
			c.State = map[string]json.RawMessage{}
		}
		if u, ok := e.State["usage"]; ok {
			c.Spent = spentOf(u)
		}
		for k, v := range e.State {
			if string(v) == "null" {
				delete(c.State, k)
			} else {
				c.State[k] = v
			}
		}
	case "rewound":
		c.Rewound = append(c.Rewound, e.Rewound)
	case "snapshot":
		c.Items = append([]json.RawMessage(nil), e.Body.Items...)
		c.Messages = append([]json.RawMessage(nil), e.Body.Messages...)
		c.Rewound = append([]json.RawMessage(nil), e.Body.Rewound...)
		c.State = maps.Clone(e.Body.State)
		c.Spent = spentOf(e.Body.State["usage"])
		if !e.Created.IsZero() {
			c.Created = e.Created
		}
		if e.Title != "" {
			c.Title = e.Title
		}
	}
}

// replay rebuilds a conversation from its records. A record that does not decode or apply is skipped: it was
// checked before it was written, so it can only come from a newer Rooted.
func replay(id string, records [][]byte) (conv, int) {
	c := conv{Meta: Meta{ID: id}}
	skipped := 0
	for _, r := range records {
		var e Event
		if json.Unmarshal(r, &e) != nil || e.check(len(c.Items), len(c.Messages)) != nil {
			skipped++
			continue
		}
		c.apply(&e)
	}
	c.Count = len(c.Items)
	return c, skipped
}

// Flat is the body as one JSON object, the shape the window saved before the log: items, messages, rewound and
// the state fields side by side. It is written out directly: every value was checked as JSON when it was
// appended (and again when the record was decoded), and encoding/json would check each once more.
func (b *Body) Flat() ([]byte, error) {
	size := 64
	for _, group := range [][]json.RawMessage{b.Items, b.Messages, b.Rewound} {
		for _, r := range group {
			size += len(r) + 1
		}
	}
	buf := bytes.NewBuffer(make([]byte, 0, size))
	array := func(name string, rs []json.RawMessage) {
		buf.WriteString(name)
		buf.WriteByte('[')
		for i, r := range rs {
			if i > 0 {
				buf.WriteByte(',')
			}
			buf.Write(r)
		}
		buf.WriteByte(']')
	}
	array(`{"items":`, b.Items)
	array(`,"messages":`, b.Messages)
	if len(b.Rewound) > 0 {
		array(`,"rewound":`, b.Rewound)
	}
	for _, k := range slices.Sorted(maps.Keys(b.State)) {
		if reserved[k] {
			continue
		}
		key, err := json.Marshal(k)
		if err != nil {
			return nil, err
		}
		buf.WriteByte(',')
		buf.Write(key)
		buf.WriteByte(':')
		buf.Write(b.State[k])
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// bodyFromFlat splits a body in the window's shape (the old file format) into a Body.
func bodyFromFlat(raw json.RawMessage) (Body, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return Body{}, err
	}
	var b Body
	for k, v := range m {
		var err error
		switch k {
		case "items":
			err = json.Unmarshal(v, &b.Items)
		case "messages":
			err = json.Unmarshal(v, &b.Messages)
		case "rewound":
			err = json.Unmarshal(v, &b.Rewound)
		default:
			if string(v) == "null" {
				continue
			}
			if b.State == nil {
				b.State = map[string]json.RawMessage{}
			}
			b.State[k] = v
		}
		if err != nil {
			return Body{}, fmt.Errorf("%s: %w", k, err)
		}
	}
	return b, nil
}
