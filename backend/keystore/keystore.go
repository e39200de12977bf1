// Package keystore keeps small secrets (the providers' API keys, the MCP servers' secrets and sign-ins) where the system keeps them: in the user's
// keyring through the freedesktop Secret Service (GNOME Keyring, KWallet, KeePassXC) where one answers on the
// session bus, or else in a file readable by the user only (mode 0600, its folder 0700).
//
// Guarantees: Open decides once which of the two holds secrets and says why (Where): a keyring that does not
// answer, has no default collection or is locked is not used, and no password prompt is ever raised. A secret is
// never logged nor put in an error. Move copies a secret into the chosen store, reads it back, and only then
// removes it from where it was: a failed write leaves the old copy.
//
// Not guaranteed: what other programs of the same user can read. Any process on the session bus may ask the
// Secret Service for an unlocked item; Rooted's sandboxed commands cannot reach the bus (see backend/sandbox).
package keystore

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// Store holds secrets by service and account.
type Store interface {
	// Get returns the secret, or ErrNotFound.
	Get(ctx context.Context, service, account string) (string, error)
	// Set stores the secret, replacing any held for the same service and account.
	Set(ctx context.Context, service, account, secret string) error
	// Delete removes the secret; removing one that is not there is not an error.
	Delete(ctx context.Context, service, account string) error
}

// ErrNotFound says no secret is held for a service and account.
var ErrNotFound = errors.New("no such secret")

// Where says which store holds secrets, for the user to read in Settings.
type Where struct {
	// Keyring is true when secrets are in the system keyring; false when in the file.
	Keyring bool `json:"keyring"`
	// Name is the keyring's ("GNOME Keyring (Secret Service)"), or the file's path.
	Name string `json:"name"`
	// Path is the file that holds secrets when there is no keyring ("" otherwise).
	Path string `json:"path,omitempty"`
	// Reason says why no keyring is used ("no session bus: DBUS_SESSION_BUS_ADDRESS is not set"); "" with one.
	Reason string `json:"reason,omitempty"`
}

// Options are what Open needs.
type Options struct {
	// File is the file that holds secrets when no keyring answers.
	File string
	// Getenv reads the environment (os.Getenv when nil): the session bus's address comes from it.
	Getenv func(string) string
	// Bus is the session bus's address; "" takes it from the environment.
	Bus string
}

// Open returns the store secrets go to: the system keyring when one answers, else the file, with where they are
// and, for the file, why. A caller moves what the file holds into a keyring with Move.
func Open(ctx context.Context, o Options) (Store, Where) {
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	k, name, err := openKeyring(ctx, o)
	if err != nil {
		return NewFile(o.File), Where{Path: o.File, Name: o.File, Reason: err.Error()}
	}
	return k, Where{Keyring: true, Name: name}
}

// Move copies the secret of each account from `from` to `to`, reads it back from `to`, and only then deletes it
// from `from`. It returns the accounts moved; an account whose copy failed stays where it was, and its error is
// returned (joined with the others').
func Move(ctx context.Context, from, to Store, service string, accounts []string) (moved []string, err error) {
	var errs []error
	for _, a := range accounts {
		v, gerr := from.Get(ctx, service, a)
		if errors.Is(gerr, ErrNotFound) {
			continue
		}
		if gerr != nil {
			errs = append(errs, gerr)
			continue
		}
		if serr := to.Set(ctx, service, a, v); serr != nil {
			errs = append(errs, serr)
			continue
		}
		if back, gerr := to.Get(ctx, service, a); gerr != nil || back != v {
			errs = append(errs, errors.Join(errors.New(a+": the secret stored did not read back the same, so it stays where it was"), gerr))
			continue
		}
		if derr := from.Delete(ctx, service, a); derr != nil {
			errs = append(errs, derr)
			continue
		}
		moved = append(moved, a)
	}
	return moved, errors.Join(errs...)
}

// Shown is path with the home folder written as ~, for a person to read.
func Shown(path string) string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" || path == "" {
		return path
	}
	if rel, err := filepath.Rel(home, path); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel) {
		return filepath.Join("~", rel)
	}
	return path
}
