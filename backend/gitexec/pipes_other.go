//go:build !unix

package gitexec

// oNonblock: systems without named pipes in the file system need no flag.
const oNonblock = 0
