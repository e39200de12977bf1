//go:build linux

package sandbox

import (
	"fmt"

	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"kernel.org/pub/linux/libs/security/libcap/psx"
)

// ConfineSelf confines this whole process, every thread, for the rest of its life, to a parser's needs: it may
// read and write under writable (and the device files programs use) and nothing else on disk, create no socket
// but a pair (so it connects and listens nowhere), signal and trace no process outside itself, and holds no
// capability, even when it runs as root. It is for a Rooted process that parses what came from outside
// (rooted-reader) and needs nothing more once its code is loaded: call it after every package's init and before
// the first byte of input. Landlock's parts apply as far as the kernel has them (none before Linux 5.13); the
// seccomp filter and the capabilities always do, and an error means the process is not confined and should not go
// on.
func ConfineSelf(writable []string) error {
	abi, _ := llsys.LandlockGetABIVersion()
	last := lastCap() // before Landlock, which denies /proc
	if err := restrict(Policy{Writable: writable}, abi); err != nil {
		return err
	}
	if err := installFilter(filterOpts{noNetlink: true}); err != nil {
		return err
	}
	if err := dropCapabilities(psx.Syscall6, last); err != nil {
		return fmt.Errorf("confining this process: %w", err)
	}
	return nil
}
