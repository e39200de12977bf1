//go:build unix

package snapshot

import "syscall"

const oNonblock = syscall.O_NONBLOCK
