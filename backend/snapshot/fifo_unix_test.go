//go:build unix

package snapshot

import "syscall"

func mkfifoSys(path string) error { return syscall.Mkfifo(path, 0o644) }
