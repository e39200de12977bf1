//go:build !unix

package tools

import "io/fs"

// subdirs is unknown here: every entry is looked at.
func subdirs(fs.FileInfo) int { return -1 }

// changeTime is unknown here: sizes and modification times stand in for it.
func changeTime(fs.FileInfo) int64 { return 0 }

// openNoFollow adds nothing here: the flags are Unix ones.
const openNoFollow = 0
