package sandbox

import "golang.org/x/sys/unix"

// selfDenied are the system calls a process confining itself may not make (filterOpts.self), on x86-64; the
// arm64 list is the same less the calls that architecture never had.
var selfDenied = append(selfDeniedCommon,
	unix.SYS_CHMOD, unix.SYS_CHOWN, unix.SYS_LCHOWN, unix.SYS_UTIME, unix.SYS_UTIMES, unix.SYS_FUTIMESAT,
	unix.SYS_FORK, unix.SYS_VFORK)
