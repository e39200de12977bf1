//go:build unix

package skills

import (
	"syscall"
	"testing"
)

// mkfifo makes a named pipe at path, as a project's file could be one.
func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
}
