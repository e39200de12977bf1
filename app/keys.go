package app

import (
	"context"
	"log/slog"
	"time"

	"github.com/rooted-dev/rooted/backend/keystore"
	"github.com/rooted-dev/rooted/backend/llm"
)

// KeyStorage says where the providers' API keys are kept, for Settings to tell the user.
type KeyStorage struct {
	// Keyring is true when keys are in the system keyring, false when in the keys file.
	Keyring bool `json:"keyring"`
	// Name is the keyring's ("GNOME Keyring (Secret Service)") or the keys file's path, the home folder as ~.
	Name string `json:"name"`
	// Reason says why no system keyring is used; "" with one.
	Reason string `json:"reason,omitempty"`
	// Problem says which keys could not be moved into the keyring at start and why; "" when none.
	Problem string `json:"problem,omitempty"`
}

// keyProbeTimeout bounds the look for a keyring at start (D-Bus activation of the keyring daemon included).
const keyProbeTimeout = 10 * time.Second

// openProviders opens the providers file at path with its keys in the system keyring where one answers (else
// in the keys file beside it), moving there the keys an earlier version left in the files.
func openProviders(path string) (*llm.Store, KeyStorage) {
	ctx, cancel := context.WithTimeout(context.Background(), keyProbeTimeout)
	defer cancel()
	file := llm.KeysPath(path)
	keys, where := keystore.Open(ctx, keystore.Options{File: file})
	ks := KeyStorage{Keyring: where.Keyring, Name: where.Name, Reason: where.Reason}
	var from keystore.Store
	if where.Keyring {
		from = keystore.NewFile(file)
	} else {
		ks.Name = keystore.Shown(where.Path)
		slog.Info("API keys are kept in a file", "path", where.Path, "reason", where.Reason)
	}
	providers := llm.NewStoreWith(path, nil, keys)
	moved, err := providers.MoveKeys(ctx, from)
	if len(moved) > 0 {
		slog.Info("moved API keys", "providers", moved, "to", where.Name)
	}
	if err != nil {
		slog.Warn("moving API keys", "err", err)
		ks.Problem = err.Error()
	}
	return providers, ks
}

// KeyStorage says where the providers' API keys are kept: the system keyring, or the keys file and why.
func (a *Agent) KeyStorage() KeyStorage { return a.keys }
