//go:build linux || freebsd || openbsd || netbsd || dragonfly

package keystore

import "context"

// openKeyring is the Secret Service on the session bus.
func openKeyring(ctx context.Context, o Options) (Store, string, error) {
	addr := o.Bus
	if addr == "" {
		addr = sessionBus(o.Getenv)
	}
	s, err := DialSecretService(ctx, addr)
	if err != nil {
		return nil, "", err
	}
	return s, s.Name(), nil
}
