package conversations

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The kill test runs this test binary again as a child that appends to a conversation until it is killed.
const childEnv = "ROOTED_CONVERSATIONS_KILL_CHILD"

func TestMain(m *testing.M) {
	if dir := os.Getenv(childEnv); dir != "" {
		appendForever(dir)
		return
	}
	os.Exit(m.Run())
}

// eventText is what event n says; a tenth of them carry a large result, stored as a blob.
func eventText(n int) string {
	if n%10 == 7 {
		return fmt.Sprintf("event %d ", n) + strings.Repeat(fmt.Sprintf("output of %d\n", n), BlobMin/8)
	}
	return fmt.Sprintf("event %d ", n) + strings.Repeat("z", n%300)
}

// appendForever appends item n, one append each, printing n once Append has returned: the parent knows that
// every printed event was saved.
func appendForever(base string) {
	s := ForProject(base, "/kill")
	s.CompactAfter = 64 << 10 // compactions happen too, and may be killed
	out := bufio.NewWriter(os.Stdout)
	for n := 0; ; n++ {
		if _, err := s.Append("c", []Event{item(n, eventText(n))}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		fmt.Fprintln(out, n)
		out.Flush()
	}
}

// SIGKILL at seeded moments while a long sequence of events is appended: every event the child was told was
// saved is there on reopen, in order, with no gap; a record torn by the kill is dropped; the conversation takes
// the next event.
func TestKillDuringAppends(t *testing.T) {
	t.Parallel()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for seed := range uint64(8) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed, 42))
			base := t.TempDir()
			cmd := exec.Command(exe, "-test.run=^$")
			cmd.Env = append(os.Environ(), childEnv+"="+base)
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			var stderr strings.Builder
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			acks := bufio.NewScanner(stdout)
			want := 50 + r.IntN(400)
			saved := -1
			for saved < want && acks.Scan() {
				saved, _ = strconv.Atoi(acks.Text())
			}
			time.Sleep(time.Duration(r.IntN(3000)) * time.Microsecond) // lands anywhere in the next appends
			_ = cmd.Process.Signal(syscall.SIGKILL)
			for acks.Scan() { // acknowledgements already in the pipe were saved too
				saved, _ = strconv.Atoi(acks.Text())
			}
			_ = cmd.Wait()
			if saved < want {
				t.Fatalf("the child stopped at %d: %s", saved, stderr.String())
			}

			s := ForProject(base, "/kill")
			c, err := s.Load("c")
			if err != nil {
				t.Fatal(err)
			}
			full, err := s.Inline(c)
			if err != nil {
				t.Fatalf("a reference without its content: %v", err)
			}
			got := texts(t, full.Items)
			if len(got) < saved+1 {
				t.Fatalf("%d events saved, %d on reopen", saved+1, len(got))
			}
			for n, text := range got {
				if text != eventText(n) {
					t.Fatalf("event %d reads %.40q", n, text)
				}
			}
			if _, err := s.Append("c", []Event{item(len(got), "after")}); err != nil {
				t.Fatal(err)
			}
			c, _ = ForProject(base, "/kill").Load("c")
			if len(c.Body.Items) != len(got)+1 {
				t.Errorf("after reopening: %d items, want %d", len(c.Body.Items), len(got)+1)
			}
			if tmp, _ := filepath.Glob(filepath.Join(s.dir, "*.damaged-*")); len(tmp) != 0 {
				t.Errorf("a kill was taken for damage: %v", tmp)
			}
			t.Logf("killed after %d acknowledged events; %d on disk", saved+1, len(got))
		})
	}
}
