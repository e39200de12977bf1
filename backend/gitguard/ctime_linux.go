package gitguard

import (
	"io/fs"
	"syscall"
)

// changeTime is a file's status change time (ns), which no command can set back.
func changeTime(fi fs.FileInfo) int64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Ctim.Nano()
	}
	return 0
}
