package keystore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/rooted-dev/rooted/backend/configfile"
	"github.com/rooted-dev/rooted/backend/smallfile"
)

// File keeps secrets in one JSON file, {service: {account: secret}}, written atomically with mode 0600 in a
// folder of mode 0700: the fallback where no keyring answers.
type File struct {
	mu   sync.Mutex
	path string
}

// NewFile keeps secrets in path.
func NewFile(path string) *File { return &File{path: path} }

func (f *File) read() (map[string]map[string]string, error) {
	b, err := smallfile.Read(f.path)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]map[string]string{}, nil
	}
	if err != nil {
		return nil, err
	}
	m := map[string]map[string]string{}
	if err := json.Unmarshal(b, &m); err != nil {
		// The error names the file, never its content.
		return nil, fmt.Errorf("%s: not a keys file: %w", f.path, errors.New("invalid JSON"))
	}
	return m, nil
}

// Get returns the secret held for service and account, or ErrNotFound.
func (f *File) Get(_ context.Context, service, account string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	m, err := f.read()
	if err != nil {
		return "", err
	}
	v, ok := m[service][account]
	if !ok {
		return "", ErrNotFound
	}
	return v, nil
}

// Set stores the secret.
func (f *File) Set(_ context.Context, service, account, secret string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	m, err := f.read()
	if err != nil {
		return err
	}
	if m[service] == nil {
		m[service] = map[string]string{}
	}
	m[service][account] = secret
	return configfile.WriteJSON(f.path, m)
}

// Delete removes the secret; the file goes when it holds none.
func (f *File) Delete(_ context.Context, service, account string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	m, err := f.read()
	if err != nil {
		return err
	}
	if _, ok := m[service][account]; !ok {
		return nil
	}
	delete(m[service], account)
	if len(m[service]) == 0 {
		delete(m, service)
	}
	if len(m) == 0 {
		if err := os.Remove(f.path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		return nil
	}
	return configfile.WriteJSON(f.path, m)
}
