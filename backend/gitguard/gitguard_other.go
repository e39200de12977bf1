//go:build !unix

package gitguard

import "io/fs"

// subdirs is unknown here: every entry is looked at.
func subdirs(fs.FileInfo) int { return -1 }

// openNoFollow adds nothing here: the flags are Unix ones.
const openNoFollow = 0
