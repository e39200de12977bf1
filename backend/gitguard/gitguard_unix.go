//go:build unix

package gitguard

import (
	"io/fs"
	"syscall"
)

// subdirs is how many folders a folder holds, from its link count where the file system keeps it (2 plus one per
// subfolder, as on ext4 and xfs); -1 where it does not.
func subdirs(fi fs.FileInfo) int {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || st.Nlink < 2 {
		return -1
	}
	return int(st.Nlink) - 2
}

// openNoFollow opens a file without following a final link and without blocking on a named pipe.
const openNoFollow = syscall.O_NOFOLLOW | syscall.O_NONBLOCK | syscall.O_CLOEXEC
