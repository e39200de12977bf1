package mcpclient

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/rooted-dev/rooted/backend/configfile"
	"github.com/rooted-dev/rooted/backend/smallfile"
)

// DefaultStateDir is where Rooted keeps what the MCP client must remember for the user across projects: the
// secrets named in servers' entries and the OAuth grants. $XDG_DATA_HOME/rooted, else the user's config folder's
// rooted: the user's, never a project's.
func DefaultStateDir() (string, error) {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "rooted"), nil
	}
	d, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "rooted"), nil
}

// jsonFile is a JSON object kept in a file only its owner reads (0600, in a 0700 folder), replaced whole through
// configfile so that a reader never sees half of it.
type jsonFile[V any] struct {
	path string
	mu   sync.Mutex
}

func (f *jsonFile[V]) load() (map[string]V, error) {
	// Read as keystore reads its keys file: never blocking on a named pipe, a regular file only, 1 MiB at most.
	b, err := smallfile.Read(f.path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]V{}, nil
	}
	if err != nil {
		return nil, err
	}
	m := map[string]V{}
	if err := json.Unmarshal(b, &m); err != nil {
		// Not err's text: a syntax error quotes the character it stopped at, which may be a secret's.
		return nil, fmt.Errorf("%s: not valid JSON: correct the file or remove it", f.path)
	}
	return m, nil
}

func (f *jsonFile[V]) get(key string) (V, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	m, err := f.load()
	v, ok := m[key]
	return v, ok, err
}

// keys lists the object's keys, sorted.
func (f *jsonFile[V]) keys() ([]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	m, err := f.load()
	if err != nil {
		return nil, err
	}
	return sortedNames(m), nil
}

// update changes the object under the lock and writes it back.
func (f *jsonFile[V]) update(change func(map[string]V)) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	m, err := f.load()
	if err != nil {
		return err
	}
	change(m)
	if len(m) == 0 {
		// Nothing left to keep (everything removed, or moved into the keyring): no file at all.
		if err := os.Remove(f.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	return configfile.WriteJSON(f.path, m)
}

// SecretFile is a key store in a file of its own (0600): Secrets until the system keyring serves them.
type SecretFile struct{ f jsonFile[string] }

// NewSecretFile keeps secrets in path.
func NewSecretFile(path string) *SecretFile { return &SecretFile{f: jsonFile[string]{path: path}} }

// Secret returns the secret stored as name (Secrets).
func (s *SecretFile) Secret(name string) (string, error) {
	v, ok, err := s.f.get(name)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", fmt.Errorf("%q: %w", name, ErrNoSecret)
	}
	return v, nil
}

// SetSecret stores value as name; an empty value removes it.
func (s *SecretFile) SetSecret(name, value string) error {
	if !secretName().MatchString(name) {
		return fmt.Errorf("a secret's name is letters, digits, '.', '_' and '-' (at most 64), not %q", name)
	}
	return s.f.update(func(m map[string]string) {
		if value == "" {
			delete(m, name)
		} else {
			m[name] = value
		}
	})
}

// SecretNames lists the names stored (never the values).
func (s *SecretFile) SecretNames() ([]string, error) {
	return s.f.keys()
}
