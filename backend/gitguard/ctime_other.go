//go:build !linux

package gitguard

import "io/fs"

// changeTime is 0 where Rooted does not read a file's status change time: only its other marks compare.
func changeTime(fs.FileInfo) int64 { return 0 }
