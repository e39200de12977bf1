//go:build !windows

package sandbox_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/testtree"

	"github.com/rooted-dev/rooted/backend/cmdenv"
	"github.com/rooted-dev/rooted/backend/sandbox"
	"github.com/rooted-dev/rooted/backend/shell"
)

// The conformance table: what every sandbox backend must do for a command, whatever the platform. Each row runs
// real programs through shell.Run with the backend under test, in each process mode the backend offers (its
// Probe, then each Weaker step: on Linux the PID namespace and the subreaper), and checks the effect a user would
// notice. A new platform's backend is a file that implements sandbox.Backend and passes this table; a backend that
// confines nothing (None) must say so instead.

// backends are the backends this platform has.
func backends() []sandbox.Backend {
	return []sandbox.Backend{sandbox.Platform()}
}

// world is a user's home with secrets in it, a project, a private temporary folder and the policy a command gets.
type world struct {
	home, project, tmp, outside string
	policy                      sandbox.Policy
}

// homeSecrets are credentials where real tools keep them: a folder no command may read, and files inside folders
// it may read (the toolchain folder is readable, the credential in it is not).
var homeSecrets = []string{".ssh/id_ed25519", ".cargo/credentials.toml", ".gem/credentials", ".config/go/env"}

func newWorld(t *testing.T, network bool) world {
	t.Helper()
	base := t.TempDir()
	w := world{
		home: filepath.Join(base, "home"), project: filepath.Join(base, "home", "project"),
		tmp: filepath.Join(base, "tmp"), outside: filepath.Join(base, "elsewhere"),
	}
	for _, d := range []string{w.project, w.tmp, w.outside, filepath.Join(w.project, ".git"), filepath.Join(w.home, ".gem")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, rel := range homeSecrets {
		p := filepath.Join(w.home, rel)
		os.MkdirAll(filepath.Dir(p), 0o700)
		// Go's env file is a credential when a setting in it carries one, as here.
		if err := os.WriteFile(p, []byte("GOPROXY=https://user:SECRET@proxy.example\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for p, content := range map[string]string{
		filepath.Join(w.outside, "private.txt"):       "PRIVATE\n",
		filepath.Join(w.project, "README"):            "project\n",
		filepath.Join(w.home, ".gem", "specs"):        "toolchain\n",
		filepath.Join(w.project, ".git", "config"):    "[core]\n\tbare = false\n",
		filepath.Join(w.project, ".git", "HEAD.keep"): "x\n",
	} {
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	w.policy = sandbox.Policy{
		Readable: cmdenv.Readable(w.home, func(string) string { return "" }),
		Writable: []string{w.project, w.tmp}, Network: network,
	}
	return w
}

// mode is one way a backend runs commands.
type mode struct {
	name    string
	backend sandbox.Backend
	info    sandbox.Info
}

// modes lists what b offers under w's policy: its probe, then each weaker mode it would fall back to.
func modes(t *testing.T, b sandbox.Backend, p sandbox.Policy) []mode {
	t.Helper()
	info := b.Probe(p)
	if !info.Active {
		t.Fatalf("backend %s confines nothing here (%s); the table is for backends that do", b.Name(), info.Reason)
	}
	var out []mode
	for {
		out = append(out, mode{name: b.Name() + "/" + info.Processes, backend: b, info: info})
		weaker, ok := b.Weaker(info)
		if !ok {
			return out
		}
		info = weaker
	}
}

func (w world) run(t *testing.T, m mode, p sandbox.Policy, argv ...string) shell.Result {
	t.Helper()
	res, err := shell.Run(context.Background(), shell.Spec{
		Argv: argv, Dir: w.project, Env: cmdenv.Env(os.Environ(), nil, "HOME="+w.home, "TMPDIR="+w.tmp),
		Timeout: 30 * time.Second, Policy: p, Sandbox: m.info, Backend: m.backend,
	})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestConformance(t *testing.T) {
	t.Parallel()
	for _, b := range backends() {
		if !b.Probe(sandbox.Policy{}).Active {
			t.Logf("backend %s confines nothing here: only TestNoneSaysSo applies", b.Name())
			continue
		}
		for _, m := range modes(t, b, sandbox.Policy{}) {
			t.Run(m.name, func(t *testing.T) {
				t.Parallel()
				conform(t, m)
			})
		}
	}
}

// conform runs the table's rows against one backend in one process mode.
func conform(t *testing.T, m mode) {
	t.Run("reads outside the project are refused", func(t *testing.T) {
		w := newWorld(t, false)
		res := w.run(t, m, w.policy, "cat", filepath.Join(w.outside, "private.txt"), "README")
		if strings.Contains(res.Stdout, "PRIVATE") || res.ExitCode == 0 {
			t.Errorf("a file outside the project was read: %+v", res)
		}
		if !strings.Contains(res.Stdout, "project") {
			t.Errorf("the project itself could not be read: %+v", res)
		}
	})
	t.Run("writes outside the project are refused", func(t *testing.T) {
		w := newWorld(t, false)
		stolen := filepath.Join(w.outside, "planted")
		res := w.run(t, m, w.policy, "sh", "-c", "echo x > "+stolen+"; echo y > "+filepath.Join(w.home, ".bashrc")+"; echo ok > made")
		for _, p := range []string{stolen, filepath.Join(w.home, ".bashrc")} {
			if _, err := os.Stat(p); err == nil {
				t.Errorf("%s was written from inside the sandbox (%+v)", p, res)
			}
		}
		if b, _ := os.ReadFile(filepath.Join(w.project, "made")); string(b) != "ok\n" {
			t.Errorf("the project could not be written: %+v", res)
		}
	})
	t.Run("secrets in the home folder are unreadable", func(t *testing.T) {
		w := newWorld(t, false)
		for _, rel := range homeSecrets {
			res := w.run(t, m, w.policy, "cat", filepath.Join(w.home, rel))
			if strings.Contains(res.Stdout, "SECRET") {
				t.Errorf("~/%s was read: %q", rel, res.Stdout)
			}
		}
		if res := w.run(t, m, w.policy, "cat", filepath.Join(w.home, ".gem", "specs")); res.Stdout != "toolchain\n" {
			t.Errorf("a toolchain file beside a credential could not be read: %+v", res)
		}
	})
	t.Run("network is off unless granted", func(t *testing.T) {
		python := systemProgram(t, "python3")
		ln := testtree.Listener(t, "HELLO\n")
		connect := "import socket\nprint('STARTED', flush=True)\ns = socket.create_connection(('127.0.0.1', " + strconv.Itoa(ln.Port) + "), 5)\nprint(s.recv(16).decode().strip())"
		for _, granted := range []bool{false, true} {
			w := newWorld(t, granted)
			info := m.info
			info.Network = m.backend.Probe(w.policy).Network
			res := w.run(t, mode{m.name, m.backend, info}, w.policy, python, "-c", connect)
			if !strings.Contains(res.Stdout, "STARTED") {
				t.Fatalf("python could not run in the sandbox: %+v", res)
			}
			if reached := strings.Contains(res.Stdout, "HELLO"); reached != granted {
				t.Errorf("network granted %v: reached the listener %v (%+v)", granted, reached, res)
			}
			if res.Sandbox.Network != granted {
				t.Errorf("network granted %v: the result says %v", granted, res.Sandbox.Network)
			}
		}
	})
	t.Run("allow-list mode: listed hosts through the proxy, nothing else", func(t *testing.T) { allowList(t, m) })
	t.Run("no process outlives the command", func(t *testing.T) {
		w := newWorld(t, false)
		marker := filepath.Join(w.project, "escaped")
		res := w.run(t, m, w.policy, "sh", "-c", detached(w.project, marker)+"; echo running")
		if res.Stdout != "running\n" {
			t.Fatalf("the detached process did not start: %+v", res)
		}
		time.Sleep(2500 * time.Millisecond) // the detached process writes its marker a second after it starts
		if _, err := os.Stat(marker); err == nil {
			t.Error("a process the command detached ran on after its result")
		}
	})
	t.Run("no process outlives a killed Rooted", func(t *testing.T) {
		w := newWorld(t, false)
		marker := filepath.Join(w.project, "escaped")
		self, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		spec, _ := json.Marshal(playRooted{
			Backend: m.backend.Name(), Info: m.info, Policy: w.policy, Dir: w.project,
			Argv: []string{"sh", "-c", detached(w.project, marker) + "; echo running; sleep 600"},
		})
		rooted := exec.Command(self, "-test.run", "^$")
		rooted.Env = append(os.Environ(), playRootedEnv+"="+string(spec), "HOME="+w.home, "TMPDIR="+w.tmp)
		out, _ := rooted.StdoutPipe()
		if err := rooted.Start(); err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 64)
		n, _ := out.Read(buf)
		if !strings.Contains(string(buf[:n]), "running") {
			rooted.Process.Kill()
			rooted.Wait()
			t.Fatalf("the command did not start: %q", buf[:n])
		}
		rooted.Process.Kill()
		rooted.Wait()
		time.Sleep(2500 * time.Millisecond)
		if _, err := os.Stat(marker); err == nil {
			t.Error("a process the command detached ran on after Rooted was killed")
		}
	})
	t.Run("protected paths are read-only during the command", func(t *testing.T) {
		w := newWorld(t, false)
		git := filepath.Join(w.project, ".git")
		p := w.policy
		p.ReadOnly, p.Pinned = []string{filepath.Join(git, "config")}, []string{git}
		res := w.run(t, m, p, "sh", "-c", "echo '[core] fsmonitor = payload' >> .git/config; mv .git .gitx; mkdir -p .git; echo '[core] fsmonitor = payload' > .git/config")
		switch res.Sandbox.Protection {
		case sandbox.ProtectionReadOnly:
			b, _ := os.ReadFile(filepath.Join(git, "config"))
			if string(b) != "[core]\n\tbare = false\n" {
				t.Errorf("a read-only path changed during the command: %q (%+v)", b, res)
			}
			if _, err := os.Stat(filepath.Join(git, "HEAD.keep")); err != nil {
				t.Errorf("the folder holding a read-only path was moved away: %v", err)
			}
		case sandbox.ProtectionWatched:
			t.Logf("%s: read-only paths are the caller's to watch (%s)", m.name, res.Sandbox.Protection)
		default:
			t.Errorf("read-only paths were listed and the result says neither bound nor watched: %q", res.Sandbox.Protection)
		}
	})
}

// systemProgram is name from the system's program folders, which every backend lets commands run (a version
// manager's shim in the real home folder would not be readable in the test's).
func systemProgram(t *testing.T, name string) string {
	t.Helper()
	for _, dir := range []string{"/usr/bin", "/bin", "/usr/local/bin"} {
		p, err := filepath.EvalSymlinks(filepath.Join(dir, name))
		if err == nil && (strings.HasPrefix(p, "/usr/") || strings.HasPrefix(p, "/bin/")) {
			return p
		}
	}
	t.Fatalf("%s is needed in the system's program folders", name)
	return ""
}

// detached is a shell line that starts a process in a session of its own, ignoring TERM and HUP, which writes
// marker a second after it starts; the line returns once it has started.
func detached(dir, marker string) string {
	started := filepath.Join(dir, "started")
	return fmt.Sprintf(`(trap '' TERM HUP; setsid sh -c "trap '' TERM HUP; echo > %s; sleep 1; echo escaped > %s" &); while [ ! -e %s ]; do sleep 0.05; done`,
		started, marker, started)
}

// playRootedEnv makes the test binary play Rooted: run the command in the JSON spec through the named backend,
// and wait to be killed.
const playRootedEnv = "ROOTED_CONFORMANCE_PLAY_ROOTED"

type playRooted struct {
	Backend string
	Info    sandbox.Info
	Policy  sandbox.Policy
	Dir     string
	Argv    []string
}

func init() {
	s := os.Getenv(playRootedEnv)
	if s == "" {
		return
	}
	// A helper's stages never come back from this; the process that plays Rooted does, able to start them.
	sandbox.RunHelperIfAsked()
	os.Unsetenv(playRootedEnv)
	var p playRooted
	if err := json.Unmarshal([]byte(s), &p); err != nil {
		panic(err)
	}
	for _, b := range backends() {
		if b.Name() == p.Backend {
			shell.Run(context.Background(), shell.Spec{
				Argv: p.Argv, Dir: p.Dir, Env: os.Environ(), Timeout: time.Hour, Policy: p.Policy, Sandbox: p.Info, Backend: b,
				Live: func(_ string, b []byte) { os.Stdout.Write(b) },
			})
		}
	}
	os.Exit(0)
}

// A backend that confines nothing says so: None reports no sandbox, names itself, gives a reason a user can act
// on, and runs the command as it is, leaving read-only paths to the caller to watch.
func TestNoneSaysSo(t *testing.T) {
	t.Parallel()
	var b sandbox.Backend = sandbox.None{}
	info := b.Probe(sandbox.Policy{Network: false})
	if info.Active || info.Kind != "none" || info.Reason == "" || !info.Network {
		t.Errorf("None reports %+v", info)
	}
	l, err := b.Launch([]string{"true"}, sandbox.Policy{ReadOnly: []string{"/x"}}, info)
	if err != nil || strings.Join(l.Argv, " ") != "true" || l.Env != nil || l.Info.Protection != sandbox.ProtectionWatched {
		t.Errorf("None launches %+v, %v", l, err)
	}
	if _, ok := b.Weaker(info); ok {
		t.Error("None offers something weaker than itself")
	}
}
