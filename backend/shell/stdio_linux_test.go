//go:build linux

package shell

import (
	"bufio"
	"context"
	"os"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/cmdenv"
)

// Stop gives a program's processes the grace period after its TERM, as a command's timeout does: each writes its
// marker on TERM, the one that left the process group too, even when the program itself ends at once on it.
func TestStdioStopTermReachesEveryProcess(t *testing.T) {
	for mode, e := range processModes(t, false) {
		t.Run(mode, func(t *testing.T) {
			p, err := StartStdio(context.Background(), StdioSpec{
				Argv: []string{"sh", "-c", termTrapScript(e.project, "program")}, Dir: e.project, Env: cmdenv.Env(os.Environ(), nil, "HOME="+e.outside, "TMPDIR="+e.tmp),
				Policy: e.policy, Sandbox: e.info, Grace: 5 * time.Second,
			})
			if err != nil {
				t.Fatal(err)
			}
			if line, err := bufio.NewReader(p.Stdout).ReadString('\n'); err != nil || line != "started\n" {
				t.Fatalf("%q %v", line, err)
			}
			p.Stop()
			termSeen(t, e.project, "program")
		})
	}
}
