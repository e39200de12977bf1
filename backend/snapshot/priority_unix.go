//go:build unix

package snapshot

import "syscall"

// lowerPriority makes a background git process yield the CPU to the rest of the machine: the agent's first search
// runs beside the first snapshot of a big project on the same cores.
func lowerPriority(pid int) { _ = syscall.Setpriority(syscall.PRIO_PROCESS, pid, 10) }
