//go:build unix

package gitexec

import "syscall"

const oNonblock = syscall.O_NONBLOCK
