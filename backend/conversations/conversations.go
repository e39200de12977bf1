// Package conversations keeps the agent's conversations per project, in the user's data directory (never in the
// project), one JSON file each, written atomically every time one changes, so a crash loses at most the change in
// flight.
//
// The conversation body is the window's to define (model messages and what the cards show); this package stores
// it as given, with the metadata it lists by.
package conversations

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
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
}

// Conversation is one stored conversation.
type Conversation struct {
	Meta
	Body json.RawMessage `json:"body"`
}

// MaxBytes bounds a conversation's file: one is read like every file Rooted reads for itself (package smallfile:
// without blocking, only a regular file), with this limit instead of 1 MiB, since tool results make a long
// conversation large. A body that would not fit is refused when saved, never written and then unreadable.
const MaxBytes = 64 << 20

// ErrNotFound says there is no conversation with that id.
var ErrNotFound = errors.New("no such conversation")

// ErrTooLarge refuses a conversation over MaxBytes.
var ErrTooLarge = errors.New("conversation too large")

// ErrBadID says an id is not one this package would make (they name files).
var ErrBadID = errors.New("invalid conversation id")

var idPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// Store holds the conversations of one project. Its methods may be called concurrently: a change (save, rename,
// delete) is a read-modify-write under the store's lock, so a rename during a save loses neither. Two Stores of
// the same project do not share the lock: keep one per project.
type Store struct {
	mu  sync.Mutex
	dir string
	now func() time.Time
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
	return &Store{dir: filepath.Join(base, "conversations", name+"-"+hex.EncodeToString(sum[:6])), now: time.Now}
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

func (s *Store) file(id string) (string, error) {
	if !idPattern.MatchString(id) {
		return "", fmt.Errorf("%w: %q", ErrBadID, id)
	}
	return filepath.Join(s.dir, id+".json"), nil
}

// List returns every conversation's metadata, most recently updated first. A damaged file is skipped, not fatal.
func (s *Store) List() ([]Meta, error) {
	entries, err := os.ReadDir(s.dir)
	if errors.Is(err, os.ErrNotExist) {
		return []Meta{}, nil
	}
	if err != nil {
		return nil, err
	}
	out := []Meta{}
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || !idPattern.MatchString(id) {
			continue
		}
		c, err := s.Load(id)
		if err != nil {
			continue
		}
		out = append(out, c.Meta)
	}
	slices.SortFunc(out, func(a, b Meta) int { return b.Updated.Compare(a.Updated) })
	return out, nil
}

// Load reads one conversation.
func (s *Store) Load(id string) (Conversation, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.load(id)
}

func (s *Store) load(id string) (Conversation, error) {
	path, err := s.file(id)
	if err != nil {
		return Conversation{}, err
	}
	b, err := smallfile.ReadMax(path, MaxBytes)
	if errors.Is(err, os.ErrNotExist) {
		return Conversation{}, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	if err != nil {
		return Conversation{}, err
	}
	var c Conversation
	if err := json.Unmarshal(b, &c); err != nil {
		return Conversation{}, fmt.Errorf("conversation %s is damaged: %w", id, err)
	}
	return c, nil
}

// Save writes the conversation's body (creating it with title if it is new; an existing title is kept unless
// title is not empty) and returns its metadata.
func (s *Store) Save(id, title string, body json.RawMessage) (Meta, error) {
	if !json.Valid(body) {
		return Meta{}, fmt.Errorf("conversation %s: the body is not JSON", id)
	}
	if len(body) > MaxBytes-64<<10 { // room for the metadata
		return Meta{}, fmt.Errorf("%w: conversation %s: %d bytes, more than a conversation may hold", ErrTooLarge, id, len(body))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c, err := s.load(id)
	switch {
	case errors.Is(err, ErrNotFound):
		c = Conversation{Meta: Meta{ID: id, Title: title, Created: s.now()}}
	case err != nil && !errors.Is(err, ErrBadID):
		// A damaged file is replaced by what the window has, which is newer.
		c = Conversation{Meta: Meta{ID: id, Title: title, Created: s.now()}}
	case err != nil:
		return Meta{}, err
	}
	if title != "" {
		c.Title = title
	}
	if c.Title == "" {
		c.Title = "New conversation"
	}
	c.Updated, c.Body = s.now(), body
	return c.Meta, s.write(c)
}

// Rename changes a conversation's title.
func (s *Store) Rename(id, title string) (Meta, error) {
	title = strings.TrimSpace(title)
	if title == "" {
		return Meta{}, errors.New("a title cannot be empty")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c, err := s.load(id)
	if err != nil {
		return Meta{}, err
	}
	c.Title = title
	return c.Meta, s.write(c)
}

// Delete removes a conversation.
func (s *Store) Delete(id string) error {
	path, err := s.file(id)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := os.Remove(path); errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("%w: %s", ErrNotFound, id)
	} else {
		return err
	}
}

func (s *Store) write(c Conversation) error {
	path, err := s.file(c.ID)
	if err != nil {
		return err
	}
	b, err := json.Marshal(c)
	if err != nil {
		return err
	}
	return configfile.Write(path, b)
}
