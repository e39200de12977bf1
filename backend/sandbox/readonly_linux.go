//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"strconv"

	"golang.org/x/sys/unix"
)

// Read-only during the command. Landlock only grants: below a folder a command may write, it cannot deny one file.
// The helper's mount namespace can: before the command starts, each path of Policy.ReadOnly (a git folder's
// config and hooks, a core.hooksPath folder, the project's folders on PATH, editor task files, dependency folders)
// is bound onto itself read-only. The command then can neither write it, nor replace, rename or remove it (a mount
// point is busy), nor add a file in a folder so bound, while tools outside the sandbox (an editor's git, a shell
// prompt) keep reading the unchanged files at every moment of the run. Only the helper's namespace sees the binds.

// A bind on .git/config holds the file, not the name: a folder above it that is not itself a mount point can be
// renamed, and the binds go with it (.git to .gitx), leaving the name free for a folder the command builds (a new
// .git whose config runs a program). So each folder of Policy.Pinned (every folder inside the project above a
// protected path) is first bound onto itself, writable: the kernel refuses to rename or remove a mount point
// (EBUSY), and the read-only binds then go inside it. The binds are not recursive, so the outer folders come first.

// pin binds each folder onto itself, writable, passing over what is gone or a link as bindReadOnly does.
func pin(paths []string) error {
	for _, p := range paths {
		fd, err := unix.Openat2(unix.AT_FDCWD, p, &unix.OpenHow{
			Flags: unix.O_PATH | unix.O_CLOEXEC | unix.O_NOFOLLOW | unix.O_DIRECTORY, Resolve: unix.RESOLVE_NO_SYMLINKS,
		})
		if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) {
			continue
		}
		if err != nil {
			return fmt.Errorf("pinning %s: %w", p, err)
		}
		self := "/proc/self/fd/" + strconv.Itoa(fd)
		err = unix.Mount(self, self, "", unix.MS_BIND, "")
		unix.Close(fd)
		if err != nil {
			return fmt.Errorf("pinning %s: %w", p, err)
		}
	}
	return nil
}

// bindReadOnly binds each path onto itself read-only. A path that is gone, or is now a link (the command cannot
// have changed it: it has not started; another job may have), is passed over: whoever listed it watches it too.
// Any other failure is an error, and the command does not run.
func bindReadOnly(paths []string) error {
	for _, p := range paths {
		fd, err := unix.Openat2(unix.AT_FDCWD, p, &unix.OpenHow{
			Flags: unix.O_PATH | unix.O_CLOEXEC | unix.O_NOFOLLOW, Resolve: unix.RESOLVE_NO_SYMLINKS,
		})
		if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ELOOP) {
			continue
		}
		if err != nil {
			return fmt.Errorf("protecting %s: %w", p, err)
		}
		err = bindFd(fd, p)
		unix.Close(fd)
		if err != nil {
			return err
		}
	}
	return nil
}

// bindCopies binds each substitute's From file onto its Path, read-only. A Path that is gone or a link is passed
// over, as bindReadOnly does (the original is then not there to read either); a From that cannot be opened is an
// error, and the command does not run: it would read the original.
func bindCopies(subs []Substitute) error {
	for _, s := range subs {
		dst, err := unix.Openat2(unix.AT_FDCWD, s.Path, &unix.OpenHow{
			Flags: unix.O_PATH | unix.O_CLOEXEC | unix.O_NOFOLLOW, Resolve: unix.RESOLVE_NO_SYMLINKS,
		})
		if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ELOOP) {
			continue
		}
		if err != nil {
			return fmt.Errorf("replacing %s: %w", s.Path, err)
		}
		src, err := unix.Open(s.From, unix.O_PATH|unix.O_CLOEXEC|unix.O_NOFOLLOW, 0)
		if err != nil {
			unix.Close(dst)
			return fmt.Errorf("replacing %s: %w", s.Path, err)
		}
		err = bindFdFrom(src, dst, s.Path)
		unix.Close(src)
		unix.Close(dst)
		if err != nil {
			return err
		}
	}
	return nil
}

// bindFd binds the file fd holds onto itself, then makes that new mount read-only, keeping the flags the kernel
// locks in a user namespace (nosuid, nodev, noexec and the atime ones may not be dropped there).
func bindFd(fd int, p string) error { return bindFdFrom(fd, fd, p) }

// bindFdFrom binds the file src holds onto the one dst holds (at p), then makes that new mount read-only.
func bindFdFrom(src, dst int, p string) error {
	from, onto := "/proc/self/fd/"+strconv.Itoa(src), "/proc/self/fd/"+strconv.Itoa(dst)
	if err := unix.Mount(from, onto, "", unix.MS_BIND, ""); err != nil {
		return fmt.Errorf("protecting %s: %w", p, err)
	}
	// The new mount is on top: the path names it now, while the descriptor still holds the one beneath.
	var st unix.Statfs_t
	if err := unix.Statfs(p, &st); err != nil {
		return fmt.Errorf("protecting %s: %w", p, err)
	}
	flags := uintptr(unix.MS_BIND | unix.MS_REMOUNT | unix.MS_RDONLY)
	for _, f := range []struct{ st, ms uintptr }{
		{unix.ST_NOSUID, unix.MS_NOSUID},
		{unix.ST_NODEV, unix.MS_NODEV},
		{unix.ST_NOEXEC, unix.MS_NOEXEC},
		{unix.ST_NOATIME, unix.MS_NOATIME},
		{unix.ST_NODIRATIME, unix.MS_NODIRATIME},
		{unix.ST_RELATIME, unix.MS_RELATIME},
	} {
		if uintptr(st.Flags)&f.st != 0 {
			flags |= f.ms
		}
	}
	if err := unix.Mount("", p, "", flags, ""); err != nil {
		return fmt.Errorf("protecting %s: %w", p, err)
	}
	// Whatever the path named as the remount ran, the file the descriptor holds must now be read-only here.
	if err := unix.Statfs(p, &st); err != nil || st.Flags&unix.ST_RDONLY == 0 {
		return fmt.Errorf("protecting %s: the read-only mount did not take", p)
	}
	return nil
}
