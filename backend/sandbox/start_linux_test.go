//go:build linux

package sandbox

import (
	"os/exec"
	"syscall"
	"testing"

	"github.com/rooted-dev/rooted/backend/testthread"
)

// A process started with a parent-death signal lives on when the thread that called Start ends, as Go ends a
// thread whose locked goroutine returns; started with exec.Cmd.Start from that thread, it gets the signal.
func TestStartOutlivesTheCallersThread(t *testing.T) {
	for _, c := range []struct {
		name  string
		start func(*exec.Cmd) error
		lives bool
	}{
		{"Start", Start, true},
		{"exec.Cmd.Start, the way it was", (*exec.Cmd).Start, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command("sh", "-c", "sleep 0.5; echo lived")
			cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
			started := make(chan error)
			go func() {
				testthread.LockOffMain() // this thread ends when the goroutine returns
				started <- c.start(cmd)
			}()
			if err := <-started; err != nil {
				t.Fatal(err)
			}
			_ = cmd.Wait() // a KILLed child is an error here; its state says which
			lived := cmd.ProcessState.ExitCode() == 0
			if lived != c.lives {
				t.Errorf("lived %v (%s), want %v", lived, cmd.ProcessState, c.lives)
			}
		})
	}
}
