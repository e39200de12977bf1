//go:build linux

package shell

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/cmdenv"
)

// Stop gives a program's processes the grace period after its TERM, as a command's timeout does: each writes its
// marker on TERM, the one that left the process group too, even when the program itself ends at once on it.
func TestStdioStopTermReachesEveryProcess(t *testing.T) {
	for mode, e := range processModes(t, false) {
		t.Run(mode, func(t *testing.T) {
			trap := func(name string) string {
				return "trap 'echo term > " + filepath.Join(e.project, name) + "; exit 0' TERM; "
			}
			ready, readyDetached := filepath.Join(e.project, "ready"), filepath.Join(e.project, "ready-detached")
			script := "(" + trap("child") + "touch " + ready + "; while :; do sleep 0.05; done) & " +
				"setsid sh -c \"" + trap("detached") + "touch " + readyDetached + "; while :; do sleep 0.05; done\" & " + trap("program") +
				"while [ ! -e " + ready + " ] || [ ! -e " + readyDetached + " ]; do sleep 0.05; done; echo started; while :; do sleep 0.05; done"
			p, err := StartStdio(context.Background(), StdioSpec{
				Argv: []string{"sh", "-c", script}, Dir: e.project, Env: cmdenv.Env(os.Environ(), nil, "HOME="+e.outside, "TMPDIR="+e.tmp),
				Policy: e.policy, Sandbox: e.info, Grace: 5 * time.Second,
			})
			if err != nil {
				t.Fatal(err)
			}
			if line, err := bufio.NewReader(p.Stdout).ReadString('\n'); err != nil || line != "started\n" {
				t.Fatalf("%q %v", line, err)
			}
			p.Stop()
			for _, name := range []string{"program", "child", "detached"} {
				if b, err := os.ReadFile(filepath.Join(e.project, name)); err != nil || string(b) != "term\n" {
					t.Errorf("the %s did not see TERM within the grace: %q %v", name, b, err)
				}
			}
		})
	}
}
