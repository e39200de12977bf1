package readerproc

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/rooted-dev/rooted/backend/readerproc/readertest"
)

// The reader gives up what its parsers never need before it reads a byte (sandbox.ConfineSelf, whose test tries
// each part from inside): every thread runs with no new privileges, under the seccomp filter, and with no
// capability even as root; it is in a session of its own (no terminal), and its environment holds no token of
// its parent's.
func TestTheReaderIsConfined(t *testing.T) {
	t.Setenv("ROOTED_TEST_TOKEN", "SECRET")
	use(t)
	page(t)
	p := pid(t)
	tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", p))
	if err != nil || len(tasks) < 2 {
		t.Fatalf("rooted-reader's threads: %v %v", tasks, err)
	}
	wants := []string{"\nNoNewPrivs:\t1\n", "\nSeccomp:\t2\n", "\nCapEff:\t0000000000000000\n", "\nCapPrm:\t0000000000000000\n"}
	if os.Geteuid() == 0 {
		wants = append(wants, "\nCapBnd:\t0000000000000000\n") // an ordinary user may not empty the bounding set
	}
	for _, task := range tasks {
		status, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/status", p, task.Name()))
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range wants {
			if !strings.Contains(string(status), want) {
				t.Errorf("rooted-reader's thread %s has no %q:\n%s", task.Name(), strings.TrimSpace(want), status)
			}
		}
	}
	if sid, err := unix.Getsid(p); err != nil || sid != p {
		t.Errorf("rooted-reader %d is in session %d (%v), not one of its own", p, sid, err)
	}
	if env, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", p)); err != nil || strings.Contains(string(env), "SECRET") {
		t.Errorf("rooted-reader's environment: %q (%v)", env, err)
	}
}

// A descriptor its parent leaked (one not close-on-exec, as C code in the window's process may make) is closed
// before the reader parses anything: Landlock and the filter govern opening files and sockets, not using one
// already open.
func TestTheReaderClosesLeakedDescriptors(t *testing.T) {
	exe := readertest.Build(t)
	leaked := filepath.Join(t.TempDir(), "leaked")
	f, err := os.Create(leaked)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cmd := exec.Command(exe, "serve")
	cmd.ExtraFiles = []*os.File{f} // descriptor 3 in the reader, as a leak would be
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		in.Close()
		cmd.Wait()
	}()
	head, _ := json.Marshal(Request{Args: pageArgs, Len: len(article)})
	if _, err := in.Write(append(append(head, '\n'), article...)); err != nil {
		t.Fatal(err)
	}
	if line, err := bufio.NewReader(out).ReadBytes('\n'); err != nil || !strings.Contains(string(line), `"code":0`) {
		t.Fatalf("the reply: %q %v", line, err)
	}
	dir := fmt.Sprintf("/proc/%d/fd", cmd.Process.Pid)
	fds, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, fd := range fds {
		if link, _ := os.Readlink(filepath.Join(dir, fd.Name())); link == leaked {
			t.Errorf("rooted-reader still holds %s as descriptor %s", leaked, fd.Name())
		}
	}
}
