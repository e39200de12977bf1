//go:build !unix

package snapshot

import "errors"

func mkfifoSys(string) error { return errors.New("no named pipes on this system") }
