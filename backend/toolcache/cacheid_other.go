//go:build unix && !linux

package toolcache

import (
	"fmt"
	"os"
	"syscall"
)

// dirIdentity names the folder at p by its device and inode where the system reports them ("" elsewhere).
func dirIdentity(p string) string {
	fi, err := os.Stat(p)
	if err != nil {
		return ""
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return fmt.Sprintf("%d:%d", st.Dev, st.Ino)
	}
	return ""
}
