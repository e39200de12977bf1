// Package recent remembers the projects a user opened, most recent first, in a small JSON file in the user's config
// directory. Writes are atomic (temporary file and rename), so a crash never leaves a half-written list.
// Not guaranteed: two processes adding at the same moment may lose one entry; the list is a convenience.
package recent

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/rooted-dev/rooted/backend/configfile"
	"github.com/rooted-dev/rooted/backend/smallfile"
)

// Max is how many projects the list keeps.
const Max = 12

// Project is one remembered project.
type Project struct {
	Path     string    `json:"path"`
	Name     string    `json:"name"`
	OpenedAt time.Time `json:"opened_at"`
}

// Store reads and writes the list in one file.
type Store struct {
	mu   sync.Mutex
	file string
}

// NewStore keeps the list in file.
func NewStore(file string) *Store { return &Store{file: file} }

// DefaultFile is recent.json in Rooted's folder of the user's config directory.
func DefaultFile() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "rooted", "recent.json"), nil
}

// List returns the projects, most recent first, leaving out folders that no longer exist.
func (s *Store) List() ([]Project, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	list, err := s.load()
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(list, func(p Project) bool {
		fi, err := os.Stat(p.Path)
		return err != nil || !fi.IsDir()
	}), nil
}

// Add moves path to the front of the list.
func (s *Store) Add(path string, now time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	list, err := s.load()
	if err != nil {
		list = nil // a corrupt list is replaced rather than blocking the user from opening projects
	}
	list = slices.DeleteFunc(list, func(p Project) bool { return p.Path == path })
	list = slices.Insert(list, 0, Project{Path: path, Name: filepath.Base(path), OpenedAt: now.UTC()})
	if len(list) > Max {
		list = list[:Max]
	}
	return s.save(list)
}

// Remove drops path from the list.
func (s *Store) Remove(path string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	list, err := s.load()
	if err != nil {
		return err
	}
	return s.save(slices.DeleteFunc(list, func(p Project) bool { return p.Path == path }))
}

func (s *Store) load() ([]Project, error) {
	b, err := smallfile.Read(s.file)
	if errors.Is(err, fs.ErrNotExist) {
		return []Project{}, nil
	}
	if err != nil {
		return nil, err
	}
	var list []Project
	if err := json.Unmarshal(b, &list); err != nil {
		return nil, err
	}
	return list, nil
}

func (s *Store) save(list []Project) error { return configfile.WriteJSON(s.file, list) }
