package toolcache

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// dirIdentity names the folder at p: device, inode and birth time, which a folder made anew at the same path does
// not share even when the file system hands out the same inode again.
func dirIdentity(p string) string {
	var st unix.Statx_t
	if err := unix.Statx(unix.AT_FDCWD, p, 0, unix.STATX_INO|unix.STATX_BTIME, &st); err != nil {
		return ""
	}
	return fmt.Sprintf("%d:%d:%d:%d.%d", uint64(st.Dev_major)<<32|uint64(st.Dev_minor), st.Ino, st.Mask&unix.STATX_BTIME, st.Btime.Sec, st.Btime.Nsec)
}
