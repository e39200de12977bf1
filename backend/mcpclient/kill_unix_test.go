//go:build unix

package mcpclient

import (
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/tool"
)

// TestKilledMidCall: a server killed during a call fails the call at once (well within 5 s), and the next call
// starts it again.
func TestKilledMidCall(t *testing.T) {
	for _, era := range eras {
		t.Run(era, func(t *testing.T) {
			f := newFixture(t, era, nil, nil)
			if _, e := f.call(t, "mcp__fx__add", `{"a":1,"b":1}`); e != nil {
				t.Fatal(e)
			}
			s := f.m.server("fx")
			s.mu.Lock()
			pid := s.conn.proc.Pid()
			s.mu.Unlock()
			done := make(chan *tool.Error, 1)
			go func() {
				_, e := f.call(t, "mcp__fx__hang", `{}`)
				done <- e
			}()
			time.Sleep(200 * time.Millisecond) // the call is on its way
			if err := syscall.Kill(-pid, syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			select {
			case e := <-done:
				if e == nil || e.Code != tool.CodeServerFailed {
					t.Fatalf("a call of a killed server: %v", e)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("the call of a killed server did not fail within 5 s")
			}
			out, e := f.call(t, "mcp__fx__add", `{"a":1,"b":2}`)
			if e != nil || !strings.Contains(string(out), `"3"`) {
				t.Fatalf("the next call did not restart the server: %s %v", out, e)
			}
		})
	}
}
