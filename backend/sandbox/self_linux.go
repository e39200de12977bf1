//go:build linux

package sandbox

import (
	"fmt"
	"os"

	"github.com/landlock-lsm/go-landlock/landlock"
	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"kernel.org/pub/linux/libs/security/libcap/psx"
)

// ConfineSelf confines this whole process, every thread, for the rest of its life, to a parser's needs. It is for a
// Rooted process that parses what came from outside (rooted-reader) and needs nothing more once its code is
// loaded: call it after every package's init and before the first byte of input. What is left to the process:
//
//   - files: reads and writes under writable and the harmless devices (/dev/null, /dev/urandom; no terminal), and
//     nothing else (Landlock); a file's mode, owner, times and extended attributes are not changed, nor a file
//     truncated by its path (the filter, for what Landlock does not govern). It can still learn whether a path
//     exists (stat), as Landlock does not govern that;
//   - sockets: none, not even a pair: no network, no unix socket, no netlink (the filter);
//   - processes: signals to itself alone (kill and its kinds naming no other, no tkill but in a cgo build until
//     SealSelf, no F_SETOWN), no other's limits, priority or scheduling, no ptrace, no reading or writing
//     another's memory (System V's included) or descriptors, no exec, no child process (threads only), no new
//     namespace, no key ring, no kernel log (the filter, and Landlock's scopes from ABI 6);
//   - capabilities: none, even as root, on every thread (securebits locked, the bounding set emptied).
//
// Landlock's part applies as far as the kernel has it (none before Linux 5.13, or where it is not enabled: then
// files are not confined, as Info says of commands); the filter applies on x86-64 and arm64, the architectures
// Rooted ships; the capabilities always. An error means the process is not confined and must not go on.
func ConfineSelf(writable []string) error {
	abi, _ := llsys.LandlockGetABIVersion()
	last := lastCap() // before Landlock, which denies /proc
	// No renames across folders (refer): wazero renames within one, and a rule asking for it would make Landlock ABI
	// 1's best effort no layer at all.
	if err := restrict(Policy{Writable: writable}, abi, selfDevices, false); err != nil {
		return err
	}
	if err := installFilter(filterOpts{self: uint32(os.Getpid())}); err != nil {
		return err
	}
	if err := dropCapabilities(psx.Syscall6, last); err != nil {
		return fmt.Errorf("confining this process: %w", err)
	}
	return nil
}

// SealSelf takes back, for the rest of the process's life, the writes ConfineSelf allowed: a second Landlock layer
// in which readable may be read and nothing but the harmless devices written. rooted-reader seals itself once
// PDFium's compiled code is in its cache folder and before it parses anything, so that what it parses cannot leave
// code there for the next reader to run. It does nothing where the kernel has no Landlock.
func SealSelf(readable []string) error {
	err := landlock.V11.BestEffort().RestrictPaths(
		landlock.RODirs(readable...).IgnoreIfMissing(),
		landlock.RWFiles(selfDevices...).IgnoreIfMissing(),
	)
	if err != nil {
		return fmt.Errorf("sealing this process: %w", err)
	}
	// The last call on every thread is made: a cgo build's tkill (selfDeniesTkill) goes too, by a second filter.
	if !selfDeniesTkill() {
		if err := installTkillFilter(); err != nil {
			return fmt.Errorf("sealing this process: %w", err)
		}
	}
	return nil
}
