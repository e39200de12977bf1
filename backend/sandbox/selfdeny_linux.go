//go:build linux

package sandbox

import "golang.org/x/sys/unix"

// selfDeniedCommon are the system calls of both architectures that a process confining itself (ConfineSelf) may
// not make, grouped by what they would reach.
var selfDeniedCommon = []uint32{
	// A file changed without being opened for writing, which is all Landlock governs (truncate by path, before
	// ABI 3): its mode, owner, times, extended attributes. Owned files include, for root, the system's.
	unix.SYS_FCHMOD, unix.SYS_FCHMODAT, unix.SYS_FCHMODAT2, unix.SYS_FCHOWN, unix.SYS_FCHOWNAT,
	unix.SYS_SETXATTR, unix.SYS_LSETXATTR, unix.SYS_FSETXATTR, unix.SYS_SETXATTRAT,
	unix.SYS_REMOVEXATTR, unix.SYS_LREMOVEXATTR, unix.SYS_FREMOVEXATTR, unix.SYS_REMOVEXATTRAT,
	unix.SYS_UTIMENSAT, unix.SYS_TRUNCATE,
	// Watching other files, and opening one by handle.
	unix.SYS_INOTIFY_ADD_WATCH, unix.SYS_FANOTIFY_INIT, unix.SYS_FANOTIFY_MARK,
	unix.SYS_NAME_TO_HANDLE_AT, unix.SYS_OPEN_BY_HANDLE_AT,
	// Other processes: their memory, their descriptors (and tkill, below).
	unix.SYS_PTRACE, unix.SYS_PROCESS_VM_READV, unix.SYS_PROCESS_VM_WRITEV, unix.SYS_KCMP,
	unix.SYS_PIDFD_OPEN, unix.SYS_PIDFD_GETFD, unix.SYS_PIDFD_SEND_SIGNAL,
	// Another program, namespaces (a user namespace's capabilities), the kernel's key rings, and the kernel's
	// larger surfaces.
	// (clone3 is refused with ENOSYS, not here, so that glibc's pthread_create falls back to clone, whose flags the
	// filter reads: selfCloneFlags.)
	unix.SYS_EXECVE, unix.SYS_EXECVEAT, unix.SYS_UNSHARE, unix.SYS_SETNS,
	unix.SYS_KEYCTL, unix.SYS_ADD_KEY, unix.SYS_REQUEST_KEY,
	unix.SYS_PERF_EVENT_OPEN, unix.SYS_USERFAULTFD, unix.SYS_BPF, unix.SYS_MOUNT, unix.SYS_CHROOT,
	// System V IPC and POSIX message queues: other processes' shared memory (an X server's image buffers), queues
	// and semaphores, which no file or Landlock rule stands for.
	unix.SYS_SHMGET, unix.SYS_SHMAT, unix.SYS_SHMCTL, unix.SYS_MSGGET, unix.SYS_MSGSND, unix.SYS_MSGRCV,
	unix.SYS_MSGCTL, unix.SYS_SEMGET, unix.SYS_SEMOP, unix.SYS_SEMCTL, unix.SYS_SEMTIMEDOP,
	unix.SYS_MQ_OPEN, unix.SYS_MQ_UNLINK, unix.SYS_MQ_TIMEDSEND, unix.SYS_MQ_TIMEDRECEIVE, unix.SYS_MQ_NOTIFY,
	unix.SYS_MQ_GETSETATTR,
	// A socket pair: a datagram one sends to any path-bound socket (the system log) before Landlock ABI 9.
	unix.SYS_SOCKETPAIR,
	// Other processes' scheduling and I/O priority, and the kernel's log.
	unix.SYS_SETPRIORITY, unix.SYS_SCHED_SETSCHEDULER, unix.SYS_SCHED_SETPARAM, unix.SYS_SCHED_SETATTR,
	unix.SYS_SCHED_SETAFFINITY, unix.SYS_IOPRIO_SET, unix.SYS_SYSLOG,
}

// tkill signals a thread by its ID alone, so any process's: refused, but in a cgo build, whose libpsx (ConfineSelf
// and SealSelf act on every thread through it) signals the process's threads with tkill. rooted-reader is built
// without cgo, where Go's own all-threads call uses tgkill, which names the process.
func selfDeniesTkill() bool { return !cgoThreads }

// selfCloneFlags are the flags of clone that a process confining itself may not pass: new namespaces. It must pass
// CLONE_THREAD: a thread of its own, never a process that would outlive it without its parent-death signal.
const selfCloneFlags = unix.CLONE_NEWUSER | unix.CLONE_NEWNS | unix.CLONE_NEWPID | unix.CLONE_NEWNET | unix.CLONE_NEWIPC |
	unix.CLONE_NEWUTS | unix.CLONE_NEWCGROUP | unix.CLONE_NEWTIME

// selfOwnFcntl are the fcntl commands (its second argument) that make the kernel signal a process the caller names
// (F_SETOWN, F_SETSIG, F_SETOWN_EX): refused. selfOwnIoctl are the ioctl requests that do the same on a socket
// (FIOSETOWN, SIOCSPGRP).
var (
	selfOwnFcntl = []uint32{unix.F_SETOWN, unix.F_SETSIG, unix.F_SETOWN_EX}
	selfOwnIoctl = []uint32{0x8901, 0x8902} // FIOSETOWN, SIOCSPGRP (linux/sockios.h), the same on every architecture
)

// selfSignals are the system calls that act on the process their first argument names, a signal or its resource
// limits: a process confining itself may name only itself (prlimit64 also 0, itself, which is how Go calls it).
var selfSignals = []uint32{unix.SYS_KILL, unix.SYS_TGKILL, unix.SYS_RT_SIGQUEUEINFO, unix.SYS_RT_TGSIGQUEUEINFO}
