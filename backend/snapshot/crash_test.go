//go:build unix

package snapshot

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/testtree"
)

// The fault-injection test: the real binaries (rooted, and rooted-mcp that "rooted mcp" starts), on a generated
// git project of thousands of files, killed with SIGKILL (or, for rooted mcp, left by a client that closes
// stdin) at seeded moments during the first snapshot, during edits and commands, and during restores. After each,
// fresh processes write, patch, run a command, diff and restore; no project file ever holds anything but one of
// the contents it was given; and every snapshot a call reported is still listed.
// ROOTED_CRASH_SEED replays a run; -short runs fewer moments.
func TestKilledAtAnyMoment(t *testing.T) {
	t.Parallel()
	moments, nfiles := 8, 4000
	if testing.Short() {
		moments, nfiles = 3, 1000
	}
	seed := uint64(time.Now().UnixNano())
	if s, err := strconv.ParseUint(os.Getenv("ROOTED_CRASH_SEED"), 10, 64); err == nil {
		seed = s
	}
	t.Logf("ROOTED_CRASH_SEED=%d", seed)
	rng := rand.New(rand.NewPCG(seed, 0))

	start := time.Now()
	bin := buildRooted(t)
	t.Logf("built in %v", time.Since(start))
	c := &crashRig{t: t, bin: bin, dir: filepath.Join(t.TempDir(), "project"), home: t.TempDir(), known: map[string]map[string]bool{}}
	c.generate(nfiles)

	// During the first snapshot: rooted mcp opens the project, and leaves (SIGKILL, or stdin closed) at once or a
	// little later. The shadow repository is wiped first each time, so each moment interrupts a first snapshot.
	for i := range moments {
		os.RemoveAll(filepath.Join(c.home, "cache", "rooted"))
		c.ids = nil // wiped with the repository
		c.interruptMCP(time.Duration(rng.Int64N(int64(1500*time.Millisecond))), i%2 == 0)
		c.verify(fmt.Sprintf("first snapshot, moment %d", i))
	}
	// During edits and commands.
	for i := range moments {
		var args []string
		switch i % 3 {
		case 0:
			p := fmt.Sprintf("src/d%d/f%d.txt", i%10, i)
			content := fmt.Sprintf("edit %d\n", i)
			c.knows(p, content)
			args = []string{"write_file", fmt.Sprintf(`{"path":%q,"content":%q}`, p, content)}
		case 1:
			p := fmt.Sprintf("touched-%d", i)
			c.knows(p, "")
			args = []string{"exec_shell", fmt.Sprintf(`{"command":"touch %s"}`, p)}
		default:
			args = []string{"exec_shell", `{"command":"ls src"}`}
		}
		c.interruptCLI(args, time.Duration(rng.Int64N(int64(600*time.Millisecond))))
		c.verify(fmt.Sprintf("edit, moment %d", i))
	}
	// During restores: a folder of hundreds of files removed by a command, then brought back by a restore that
	// is killed midway.
	for i := range moments {
		out := c.call("exec_shell", `{"command":"rm -r src/d3"}`)
		var res struct{ Backup string }
		json.Unmarshal(out, &res)
		if res.Backup == "" {
			t.Fatalf("rm reported no backup: %s", out)
		}
		c.interruptCLI([]string{"restore_snapshot", fmt.Sprintf(`{"id":%q}`, res.Backup)}, time.Duration(rng.Int64N(int64(800*time.Millisecond))))
		c.verify(fmt.Sprintf("restore, moment %d", i))
		c.call("restore_snapshot", fmt.Sprintf(`{"id":%q}`, res.Backup))
		if _, err := os.Stat(filepath.Join(c.dir, "src/d3/f3.txt")); err != nil {
			t.Fatalf("after the restore of %s: %v", res.Backup, err)
		}
	}
}

// buildRooted builds rooted and rooted-mcp into one folder, as they are installed.
// buildRooted builds the two binaries, or takes them from ROOTED_TEST_BIN (a folder holding both): a run as
// another user has no build cache of its own, so the binaries are built before, by whoever has one.
func buildRooted(t *testing.T) string {
	t.Helper()
	if dir := os.Getenv("ROOTED_TEST_BIN"); dir != "" {
		return dir
	}
	out := t.TempDir()
	for _, cmd := range []string{"rooted", "rooted-mcp"} {
		b := exec.Command("go", "build", "-o", filepath.Join(out, cmd), "./cmd/"+cmd)
		b.Dir = filepath.Join("..", "..")
		if o, err := b.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", cmd, err, o)
		}
	}
	return out
}

type crashRig struct {
	t     *testing.T
	bin   string
	dir   string
	home  string
	known map[string]map[string]bool // every content each file was given
	ids   []string                   // every snapshot a call reported
	round int
}

func (c *crashRig) knows(p, content string) {
	if c.known[p] == nil {
		c.known[p] = map[string]bool{}
	}
	c.known[p][content] = true
}

func (c *crashRig) generate(n int) {
	for i := range n {
		p := fmt.Sprintf("src/d%d/f%d.txt", i%10, i)
		content := strings.Repeat(fmt.Sprintf("line %d of file %d\n", i%7, i), 1+i%40)
		c.knows(p, content)
		os.MkdirAll(filepath.Join(c.dir, filepath.Dir(p)), 0o755)
		if err := os.WriteFile(filepath.Join(c.dir, p), []byte(content), 0o644); err != nil {
			c.t.Fatal(err)
		}
	}
	c.knows(".gitignore", "*.log\n")
	os.WriteFile(filepath.Join(c.dir, ".gitignore"), []byte("*.log\n"), 0o644)
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"commit", "-qm", "generated"}} {
		testtree.Git(c.t, c.dir, args...)
	}
}

func (c *crashRig) env() []string {
	return append(os.Environ(), "HOME="+c.home, "XDG_CACHE_HOME="+filepath.Join(c.home, "cache"), "XDG_CONFIG_HOME="+filepath.Join(c.home, "config"))
}

// command is rooted with args, in its own process group (a kill reaches it alone, as a crash would).
func (c *crashRig) command(args ...string) *exec.Cmd {
	cmd := exec.Command(filepath.Join(c.bin, "rooted"), args...)
	cmd.Env = c.env()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd
}

// call runs one tool to the end and returns its result, failing the test on an error.
func (c *crashRig) call(tool, input string) []byte {
	c.t.Helper()
	cmd := c.command("call", tool, "--root", c.dir, input)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		c.t.Fatalf("round %d: rooted call %s %s: %v\n%s%s", c.round, tool, input, err, stdout.Bytes(), stderr.Bytes())
	}
	var res struct{ Backup string }
	if json.Unmarshal(stdout.Bytes(), &res) == nil && res.Backup != "" {
		c.ids = append(c.ids, res.Backup)
	}
	return stdout.Bytes()
}

// interruptCLI starts rooted call and kills it after delay (it may have finished by then).
func (c *crashRig) interruptCLI(args []string, delay time.Duration) {
	cmd := c.command(append([]string{"call", args[0], "--root", c.dir}, args[1:]...)...)
	if err := cmd.Start(); err != nil {
		c.t.Fatal(err)
	}
	time.Sleep(delay)
	cmd.Process.Kill()
	cmd.Wait()
}

// interruptMCP starts rooted mcp, initializes, and after delay kills it, or closes its stdin as a client that
// quits does (then waits for it to leave).
func (c *crashRig) interruptMCP(delay time.Duration, kill bool) {
	cmd := c.command("mcp", "--root", c.dir)
	in, err := cmd.StdinPipe()
	if err != nil {
		c.t.Fatal(err)
	}
	cmd.Stdout = io.Discard
	if err := cmd.Start(); err != nil {
		c.t.Fatal(err)
	}
	io.WriteString(in, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"crash","version":"1"}}}`+"\n")
	io.WriteString(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	time.Sleep(delay)
	if kill {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // rooted and the rooted-mcp it started
	} else {
		in.Close()
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		c.t.Fatalf("rooted mcp did not leave within 30 s of its stdin closing")
	}
}

// verify has fresh processes write, patch, run a command, diff and restore, then checks every file and snapshot.
func (c *crashRig) verify(when string) {
	c.t.Helper()
	c.round++
	start := time.Now()
	defer func() { c.t.Logf("%s: verified in %v", when, time.Since(start)) }()
	p := fmt.Sprintf("zz-%d.txt", c.round)
	c.knows(p, "round\n")
	c.knows(p, "patched round\n")
	var wrote struct{ Backup string }
	json.Unmarshal(c.call("write_file", fmt.Sprintf(`{"path":%q,"content":"round\n"}`, p)), &wrote)
	var patched struct{ Backup string }
	json.Unmarshal(c.call("patch_file", fmt.Sprintf(`{"path":%q,"search":"round","replace":"patched round"}`, p)), &patched)
	c.call("exec_shell", `{"command":"ls"}`)
	if wrote.Backup == "" || patched.Backup == "" {
		c.t.Fatalf("%s: a write reported no backup", when)
	}
	var diff struct{ Diff string }
	json.Unmarshal(c.call("diff_snapshot", fmt.Sprintf(`{"id":%q,"path":%q}`, patched.Backup, p)), &diff)
	if !strings.Contains(diff.Diff, "+patched round") {
		c.t.Fatalf("%s: the diff since the patch's backup lacks the patch:\n%s", when, diff.Diff)
	}
	c.call("restore_snapshot", fmt.Sprintf(`{"id":%q}`, wrote.Backup))
	if _, err := os.Lstat(filepath.Join(c.dir, p)); err == nil {
		c.t.Fatalf("%s: restoring the state before %s was written left it", when, p)
	}
	// Every file holds one of the contents it was given (a temporary file of an interrupted write aside).
	filepath.WalkDir(c.dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(c.dir, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(rel, ".tmp") && strings.Contains(rel, ".rooted-") {
			return nil
		}
		b, _ := os.ReadFile(path)
		if !c.known[rel][string(b)] {
			c.t.Errorf("%s: %s holds %d bytes it was never given: %.60q", when, rel, len(b), b)
		}
		return nil
	})
	var list struct{ Snapshots []Snapshot }
	json.Unmarshal(c.call("list_snapshots", `{"limit":1000}`), &list)
	listed := map[string]bool{}
	for _, s := range list.Snapshots {
		listed[s.ID] = true
	}
	for _, id := range c.ids {
		if !listed[id] {
			c.t.Errorf("%s: snapshot %s, reported by a call, is no longer listed", when, id)
		}
	}
	if c.t.Failed() {
		c.t.FailNow()
	}
}
