package walk

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// openBeneath opens the folder at the slash path rel below h in one call, the kernel resolving it (openat2): never
// above h, never through a link. ok is false where the kernel refuses openat2 itself (before Linux 5.6, or a
// seccomp filter): the caller resolves rel another way.
func (h handle) openBeneath(rel string) (sub handle, ok bool, err error) {
	how := unix.OpenHow{
		Flags:   unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	}
	fd, err := unix.Openat2(h.fd, rel, &how)
	if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EPERM) {
		return handle{}, false, nil
	}
	if err != nil {
		return handle{}, true, &os.PathError{Op: "open", Path: rel, Err: err}
	}
	return handle{fd}, true, nil
}
