//go:build !linux

package sandbox

import (
	"errors"
	"net"
	"time"
)

// Listener: there are no network namespaces here, so no bridge is ever made.
func (b *Bridge) Listener(time.Duration) (net.Listener, error) {
	return nil, errors.New("no network namespaces on this platform")
}
