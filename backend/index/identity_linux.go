package index

import (
	"io/fs"
	"syscall"
)

// changeTime is a file's inode change time: set by the kernel on every change, and not settable by a program, so
// a file written and then given back its old modification time still shows a new identity.
func changeTime(fi fs.FileInfo) int64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Ctim.Nano()
	}
	return 0
}
