//go:build darwin || windows

package keystore

import (
	"context"
	"errors"
	"fmt"
	"runtime"

	"github.com/zalando/go-keyring"
)

// openKeyring is the macOS Keychain or the Windows Credential Manager, asked once for an item that is not there
// to see that it answers.
func openKeyring(context.Context, Options) (Store, string, error) {
	name := "the macOS Keychain"
	if runtime.GOOS == "windows" {
		name = "the Windows Credential Manager"
	}
	if _, err := keyring.Get("rooted", "(probe)"); err != nil && !errors.Is(err, keyring.ErrNotFound) {
		return nil, "", fmt.Errorf("%s did not answer: %v", name, err)
	}
	return system{}, name, nil
}

// system is the platform's credential store, through go-keyring (the Keychain through /usr/bin/security, the
// secret given on its standard input, not its command line; Credential Manager through wincred).
type system struct{}

func (system) Get(_ context.Context, service, account string) (string, error) {
	v, err := keyring.Get(service, account)
	if errors.Is(err, keyring.ErrNotFound) {
		return "", ErrNotFound
	}
	return v, err
}

func (system) Set(_ context.Context, service, account, secret string) error {
	return keyring.Set(service, account, secret)
}

func (system) Delete(_ context.Context, service, account string) error {
	if err := keyring.Delete(service, account); err != nil && !errors.Is(err, keyring.ErrNotFound) {
		return err
	}
	return nil
}
