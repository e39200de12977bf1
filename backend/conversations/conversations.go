// Package conversations keeps the agent's conversations per project, in the user's data directory (never in the
// project). A conversation is an append-only log of what happened (events: an item added or changed, messages
// added, a rewind), each record framed with its length and checksum and on disk before Append returns; strings
// of BlobMin bytes or more (tool results) are kept once, by hash, in files beside the log. So a crash or a kill
// loses at most the record being written, and a reopened conversation shows everything before it; a log that
// grows past a few MiB of changes is rewritten as one snapshot record. Conversations saved before the log (one
// JSON file each) still open, and move to a log on their first change.
//
// Items and messages are the window's to define: the store keeps them as given, reading only an item's kind and
// text to export it.
package conversations

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/rooted-dev/rooted/backend/configfile"
	"github.com/rooted-dev/rooted/backend/smallfile"
)

// Meta is what a list shows.
type Meta struct {
	ID      string    `json:"id"`
	Title   string    `json:"title"`
	Created time.Time `json:"created"`
	Updated time.Time `json:"updated"`
	Count   int       `json:"count,omitempty"` // items, when known (on open, not in a list)
	Spent
}

// Spent is what a conversation's requests cost, as its saved usage says (the window adds each request's cost to
// it): the US dollars of those whose cost is known, and how many were not. Kept in the meta file, so a list shows
// it without replaying logs.
type Spent struct {
	Cost        *float64 `json:"cost,omitempty"` // nil: no request's cost is known
	CostUnknown int      `json:"cost_unknown,omitempty"`
}

// spentOf reads the cost summary from a conversation's "usage" state field ({"cost": 0.01, "costUnknown": 2,
// ...}); a field that does not say is no cost known.
func spentOf(usage json.RawMessage) Spent {
	var u struct {
		Cost        *float64 `json:"cost"`
		CostUnknown int      `json:"costUnknown"`
	}
	if json.Unmarshal(usage, &u) != nil {
		return Spent{}
	}
	if u.Cost != nil && (*u.Cost < 0 || math.IsNaN(*u.Cost) || math.IsInf(*u.Cost, 0)) {
		u.Cost = nil
	}
	return Spent{Cost: u.Cost, CostUnknown: max(u.CostUnknown, 0)}
}

// equal says whether two summaries say the same.
func (a Spent) equal(b Spent) bool {
	return a.CostUnknown == b.CostUnknown && (a.Cost == nil) == (b.Cost == nil) && (a.Cost == nil || *a.Cost == *b.Cost)
}

// Conversation is one stored conversation; strings over BlobMin are references (Inline puts them back).
type Conversation struct {
	Meta
	Body Body
}

// MaxLegacyBytes bounds a conversation file of the format before the log (they were capped at 64 MiB).
const MaxLegacyBytes = 64 << 20

// ErrNotFound says there is no conversation with that id.
var ErrNotFound = errors.New("no such conversation")

// ErrBadID says an id is not one this package would make (they name files).
var ErrBadID = errors.New("invalid conversation id")

var idPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`) })

// Store holds the conversations of one project. Its methods may be called concurrently; two Stores of the same
// project (the window and the CLI) may read together, but only one should append (keep one per project).
type Store struct {
	mu   sync.Mutex
	dir  string
	now  func() time.Time
	logs map[string]*logState // conversations appended to since the store was made
	// CompactAfter is how many bytes of records after the last snapshot make Append rewrite the log (when they are
	// also more than twice the snapshot).
	CompactAfter int64
}

// ForProject returns the store of the project at root, under base (the user's data directory for Rooted).
func ForProject(base, root string) *Store {
	sum := sha256.Sum256([]byte(root))
	name := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '-'
	}, filepath.Base(root))
	return &Store{
		dir: filepath.Join(base, "conversations", name+"-"+hex.EncodeToString(sum[:6])), now: time.Now,
		logs: map[string]*logState{}, CompactAfter: 8 << 20,
	}
}

// DefaultBase is $XDG_DATA_HOME/rooted (~/.local/share/rooted) or, elsewhere, the user's config directory.
func DefaultBase() (string, error) {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "rooted"), nil
	}
	if home, err := os.UserHomeDir(); err == nil && os.PathSeparator == '/' {
		return filepath.Join(home, ".local", "share", "rooted"), nil
	}
	d, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "rooted"), nil
}

// Dir is the folder that holds the project's conversations.
func (s *Store) Dir() string { return s.dir }

// files names a conversation's files.
type files struct {
	log, meta, legacy string
	blobs             blobs
}

func (s *Store) files(id string) (files, error) {
	if !idPattern().MatchString(id) {
		return files{}, fmt.Errorf("%w: %q", ErrBadID, id)
	}
	p := filepath.Join(s.dir, id)
	return files{log: p + ".log", meta: p + ".meta", legacy: p + ".json", blobs: blobs{dir: p + ".blobs"}}, nil
}

// metaFile is the small file a list reads, so listing does not replay logs; rewritten when the title or the cost
// changes. V is metaVersion; a file without it (written before the cost was kept) is read from the log once and
// written again.
type metaFile struct {
	ID      string    `json:"id"`
	Title   string    `json:"title"`
	Created time.Time `json:"created"`
	Spent
	V int `json:"v,omitempty"`
}

const metaVersion = 1

// List returns every conversation's metadata, most recently updated first. A damaged one is skipped, not fatal.
func (s *Store) List() ([]Meta, error) {
	entries, err := os.ReadDir(s.dir)
	if errors.Is(err, os.ErrNotExist) {
		return []Meta{}, nil
	}
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	out := []Meta{}
	for _, e := range entries {
		name := e.Name()
		id := strings.TrimSuffix(strings.TrimSuffix(name, ".log"), ".json")
		if id == name || seen[id] || !idPattern().MatchString(id) {
			continue
		}
		seen[id] = true
		if m, err := s.meta(id); err == nil {
			out = append(out, m)
		}
	}
	slices.SortFunc(out, func(a, b Meta) int {
		if c := b.Updated.Compare(a.Updated); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID) // changed within the file system's clock tick: a steady order
	})
	return out, nil
}

// meta reads a conversation's metadata without replaying its log where its meta file says enough.
func (s *Store) meta(id string) (Meta, error) {
	f, err := s.files(id)
	if err != nil {
		return Meta{}, err
	}
	st, err := os.Stat(f.log)
	if err == nil {
		var m metaFile
		if b, err := smallfile.Read(f.meta); err == nil && json.Unmarshal(b, &m) == nil && m.ID == id && m.V >= metaVersion {
			return Meta{ID: id, Title: m.Title, Created: m.Created, Updated: st.ModTime(), Spent: m.Spent}, nil
		}
	}
	// Read and written under the lock, so an Append between the two cannot be overwritten with what was before it.
	s.mu.Lock()
	defer s.mu.Unlock()
	c, _, err := s.load(id)
	if err == nil && st != nil {
		_ = s.writeMeta(f, c.Meta) // the next list reads it; a list that cannot write still has the log
	}
	return c.Meta, err
}

// Load reads one conversation, with references in place of long strings.
func (s *Store) Load(id string) (Conversation, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, _, err := s.load(id)
	return c, err
}

// load reads a conversation and the scan of its log (zero when it has none yet).
func (s *Store) load(id string) (Conversation, scan, error) {
	f, err := s.files(id)
	if err != nil {
		return Conversation{}, scan{}, err
	}
	sc, err := readLogFile(f.log)
	if errors.Is(err, os.ErrNotExist) {
		c, err := s.loadLegacy(id, f.legacy)
		return c, scan{}, err
	}
	if err != nil {
		return Conversation{}, scan{}, err
	}
	r, _ := replay(id, sc.records)
	if r.Title == "" {
		r.Title = "New conversation"
	}
	return Conversation{Meta: r.Meta, Body: r.Body}, sc, nil
}

// loadLegacy reads a conversation in the format before the log.
func (s *Store) loadLegacy(id, path string) (Conversation, error) {
	b, err := smallfile.ReadMax(path, MaxLegacyBytes)
	if errors.Is(err, os.ErrNotExist) {
		return Conversation{}, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	if err != nil {
		return Conversation{}, err
	}
	var old struct {
		Meta
		Body json.RawMessage `json:"body"`
	}
	if err := json.Unmarshal(b, &old); err != nil {
		return Conversation{}, fmt.Errorf("conversation %s is damaged: %w", id, err)
	}
	body, err := bodyFromFlat(old.Body)
	if err != nil {
		return Conversation{}, fmt.Errorf("conversation %s is damaged: %w", id, err)
	}
	old.ID = id
	old.Count = len(body.Items)
	return Conversation{Meta: old.Meta, Body: body}, nil
}

// Blob returns the stored content a reference of the conversation names.
func (s *Store) Blob(id, hash string) ([]byte, error) {
	f, err := s.files(id)
	if err != nil {
		return nil, err
	}
	return f.blobs.read(hash)
}

// Inline returns c's body with every reference replaced by its content (for export).
func (s *Store) Inline(c Conversation) (Body, error) {
	f, err := s.files(c.ID)
	if err != nil {
		return Body{}, err
	}
	out := Body{State: map[string]json.RawMessage{}}
	each := func(in []json.RawMessage) ([]json.RawMessage, error) {
		res := make([]json.RawMessage, len(in))
		for i, r := range in {
			v, err := f.blobs.inline(r)
			if err != nil {
				return nil, err
			}
			res[i] = v
		}
		return res, nil
	}
	if out.Items, err = each(c.Body.Items); err != nil {
		return Body{}, err
	}
	if out.Messages, err = each(c.Body.Messages); err != nil {
		return Body{}, err
	}
	if out.Rewound, err = each(c.Body.Rewound); err != nil {
		return Body{}, err
	}
	for k, v := range c.Body.State {
		if out.State[k], err = f.blobs.inline(v); err != nil {
			return Body{}, err
		}
	}
	return out, nil
}

// BlobsContaining returns the hashes of the conversation's stored contents that hold text, ignoring case: what
// a search over a conversation needs beside the items it has in memory.
func (s *Store) BlobsContaining(id, text string) ([]string, error) {
	f, err := s.files(id)
	if err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(f.blobs.dir)
	if errors.Is(err, os.ErrNotExist) {
		return []string{}, nil
	}
	if err != nil {
		return nil, err
	}
	needle := []byte(strings.ToLower(text))
	out := []string{}
	for _, e := range entries {
		if !hashPattern().MatchString(e.Name()) {
			continue
		}
		b, err := f.blobs.read(e.Name())
		if err != nil {
			continue
		}
		if containsFold(b, needle) {
			out = append(out, e.Name())
		}
	}
	return out, nil
}

// Rename changes a conversation's title.
func (s *Store) Rename(id, title string) (Meta, error) {
	title = strings.TrimSpace(title)
	if title == "" {
		return Meta{}, errors.New("a title cannot be empty")
	}
	if _, err := s.Load(id); err != nil {
		return Meta{}, err
	}
	return s.Append(id, []Event{{T: "title", Title: title}})
}

// Delete removes a conversation.
func (s *Store) Delete(id string) error {
	f, err := s.files(id)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.logs, id)
	found := false
	for _, p := range []string{f.log, f.legacy, f.meta} {
		err := os.Remove(p)
		if err == nil {
			found = true
		} else if !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	if err := os.RemoveAll(f.blobs.dir); err != nil {
		return err
	}
	if !found {
		return fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	return nil
}

func (s *Store) writeMeta(f files, m Meta) error {
	b, err := json.Marshal(metaFile{ID: m.ID, Title: m.Title, Created: m.Created, Spent: m.Spent, V: metaVersion})
	if err != nil {
		return err
	}
	return configfile.Write(f.meta, b)
}
