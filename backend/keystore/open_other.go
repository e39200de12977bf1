//go:build !(linux || freebsd || openbsd || netbsd || dragonfly || darwin || windows)

package keystore

import (
	"context"
	"fmt"
	"runtime"
)

func openKeyring(context.Context, Options) (Store, string, error) {
	return nil, "", fmt.Errorf("Rooted knows no system keyring on %s", runtime.GOOS)
}
