//go:build unix

package shell

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/testtree"

	"golang.org/x/sys/unix"

	"github.com/rooted-dev/rooted/backend/cmdenv"
	"github.com/rooted-dev/rooted/backend/cmdpolicy"
	"github.com/rooted-dev/rooted/backend/sandbox"
)

type sandboxEnv struct {
	project, tmp, outside string
	policy                sandbox.Policy
	info                  sandbox.Info
}

func newSandbox(t *testing.T, network bool) sandboxEnv {
	t.Helper()
	base := t.TempDir()
	e := sandboxEnv{project: filepath.Join(base, "project"), tmp: filepath.Join(base, "tmp"), outside: filepath.Join(base, "home")}
	for _, d := range []string{e.project, e.tmp, e.outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	e.policy = sandbox.Policy{Readable: cmdenv.Readable(e.outside, os.Getenv), Writable: []string{e.project, e.tmp}, Network: network}
	e.info = sandbox.Probe(e.policy)
	return e
}

func (e sandboxEnv) run(t *testing.T, argv ...string) Result {
	t.Helper()
	res, err := Run(context.Background(), Spec{Argv: argv, Dir: e.project, Env: cmdenv.Env(os.Environ(), nil, "HOME="+e.outside, "TMPDIR="+e.tmp), Timeout: 20 * time.Second, Policy: e.policy, Sandbox: e.info})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestSandboxConfinesWrites(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("Landlock is Linux's")
	}
	e := newSandbox(t, true)
	if !e.info.Active || e.info.Kind != "landlock" || e.info.Level < 1 {
		t.Fatalf("no Landlock sandbox on this Linux machine: %+v", e.info)
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatal("node is required for this test")
	}
	// An allowed program writing into the user's home from inside: refused, and nothing is left behind.
	res := e.run(t, "node", "-e", `require("fs").writeFileSync(require("os").homedir() + "/stolen.txt", "x")`)
	if res.ExitCode == 0 || !strings.Contains(res.Stderr, "EACCES") {
		t.Errorf("node wrote outside the project: exit %d, stderr %q", res.ExitCode, res.Stderr)
	}
	if _, err := os.Stat(filepath.Join(e.outside, "stolen.txt")); err == nil {
		t.Fatal("a file was created outside the project")
	}
	res = e.run(t, "sh", "-c", "echo x > "+filepath.Join(e.outside, "also.txt")+"; mkdir "+filepath.Join(e.outside, "dir"))
	if res.ExitCode == 0 {
		t.Errorf("sh wrote outside: %+v", res)
	}
	if entries, _ := os.ReadDir(e.outside); len(entries) != 0 {
		t.Fatalf("outside the project now holds %v", entries)
	}
	// Inside the project and the private temporary directory, writing works, renames across directories too.
	res = e.run(t, "sh", "-c", `mkdir -p a/b && echo hi > a/b/f && mv a/b/f a/g && echo t > "$TMPDIR/t" && mv "$TMPDIR/t" ./t && cat a/g t`)
	if res.ExitCode != 0 || res.Stdout != "hi\nt\n" {
		t.Errorf("writing inside: %+v", res)
	}
	// Reading the home directory is refused too; the system's files are readable (builds read toolchains).
	os.WriteFile(filepath.Join(e.outside, "private"), []byte("r"), 0o644)
	if res := e.run(t, "sh", "-c", "cat "+filepath.Join(e.outside, "private")); res.Stdout == "r" || res.ExitCode == 0 {
		t.Errorf("reading the home directory: %+v", res)
	}
	if res := e.run(t, "sh", "-c", "head -c 4 /usr/bin/env | od -c | head -1"); !strings.Contains(res.Stdout, "E   L   F") {
		t.Errorf("reading /usr: %+v", res)
	}
}

func TestSandboxBlocksNetwork(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("Landlock is Linux's")
	}
	ln := testtree.Listener(t, "")
	port := strconv.Itoa(ln.Port)
	script := `const s = require("net").connect(` + port + `, "127.0.0.1", () => { console.log("connected"); s.destroy() }); s.on("error", e => { console.log(e.code); process.exit(3) })`
	for _, network := range []bool{true, false} {
		e := newSandbox(t, network)
		if e.info.Level < 4 {
			t.Skipf("Landlock ABI %d has no network rules", e.info.Level)
		}
		res := e.run(t, "node", "-e", script)
		if got := strings.TrimSpace(res.Stdout) == "connected"; got != network {
			t.Errorf("network %v: %+v", network, res)
		}
		// Renames across directories (every compiler's temp-then-rename) work either way: one Landlock layer.
		res = e.run(t, "node", "-e", `const fs = require("fs"); fs.mkdirSync("d/e", {recursive: true}); fs.writeFileSync("d/e/f", "x"); fs.renameSync("d/e/f", "d/g"); console.log("renamed")`)
		if strings.TrimSpace(res.Stdout) != "renamed" {
			t.Errorf("network %v: rename across directories: %+v", network, res)
		}
		if e.info.Network != network {
			t.Errorf("sandbox.Info.Network = %v, want %v", e.info.Network, network)
		}
	}
}

func TestTimeoutKillsTheWholeGroup(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	pids := filepath.Join(dir, "pids")
	start := time.Now()
	res, err := Run(context.Background(), Spec{
		Argv: []string{"sh", "-c", "sleep 60 & echo $! > " + pids + "; sleep 60 & echo $! >> " + pids + "; echo started; wait"},
		Dir:  dir, Env: os.Environ(), Timeout: 500 * time.Millisecond, Grace: 200 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	if !res.TimedOut || res.Stdout != "started\n" || time.Since(start) > 10*time.Second {
		t.Fatalf("timed-out command: %+v after %v", res, time.Since(start))
	}
	b, _ := os.ReadFile(pids)
	for _, f := range strings.Fields(string(b)) {
		pid, _ := strconv.Atoi(f)
		deadline := time.Now().Add(5 * time.Second)
		for alive(pid) && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if alive(pid) {
			t.Errorf("sleep child %d survived the timeout", pid)
		}
	}
}

// The command runs in a session of its own, without the controlling terminal: it cannot push keystrokes into the
// user's terminal (TIOCSTI) nor be stopped by the terminal's signals.
func TestOwnSessionWithoutTerminal(t *testing.T) {
	t.Parallel()
	res, err := Run(context.Background(), Spec{Argv: []string{"sh", "-c", "echo $$; cat /proc/self/stat"}, Dir: t.TempDir(), Env: os.Environ()})
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("%+v, %v", res, err)
	}
	lines := strings.Split(strings.TrimSpace(res.Stdout), "\n")
	shPid := lines[0]
	// pid (comm) state ppid pgrp session tty_nr ...: comm may hold spaces, so count from the closing parenthesis.
	f := strings.Fields(lines[1][strings.LastIndexByte(lines[1], ')')+1:])
	pgrp, session, tty := f[2], f[3], f[4]
	if session != shPid || pgrp != shPid || tty != "0" {
		t.Errorf("command's session %s, group %s, tty %s; want a session and group led by the command (%s) and no terminal", session, pgrp, tty, shPid)
	}
	if own, _ := unix.Getsid(0); strconv.Itoa(own) == session {
		t.Error("the command shares Rooted's session")
	}
}

func TestCancel(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(200 * time.Millisecond); cancel() }()
	res, err := Run(ctx, Spec{Argv: []string{"sleep", "30"}, Dir: t.TempDir(), Env: os.Environ(), Grace: 100 * time.Millisecond})
	if err != nil || !res.Cancelled || res.ExitCode == 0 {
		t.Fatalf("cancelled: %+v, %v", res, err)
	}
}

// A command printing a gigabyte costs a bounded amount of memory: what is kept is the cap, and nothing on the way
// accumulates it.
func TestGigabyteOfOutputStaysWithinTheCap(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a gigabyte through a pipe")
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res, err := Run(context.Background(), Spec{Argv: []string{"head", "-c", "1073741824", "/dev/zero"}, Dir: t.TempDir(), Env: os.Environ(), OutputCap: 64 << 10})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if res.Bytes != 1<<30 || !res.Truncated || len(res.Stdout) > 64<<10+100 || !strings.Contains(res.Stdout, "bytes cut") {
		t.Fatalf("bytes %d, truncated %v, kept %d", res.Bytes, res.Truncated, len(res.Stdout))
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
		t.Errorf("running it allocated %d MiB for 1024 MiB of output", grew>>20)
	}
}

func TestExitCodesAndStartErrors(t *testing.T) {
	t.Parallel()
	res, err := Run(context.Background(), Spec{Argv: []string{"sh", "-c", "echo out; echo err >&2; exit 3"}, Dir: t.TempDir(), Env: os.Environ()})
	if err != nil || res.ExitCode != 3 || res.Stdout != "out\n" || res.Stderr != "err\n" {
		t.Fatalf("%+v, %v", res, err)
	}
	if _, err := Run(context.Background(), Spec{Argv: []string{"no-such-program-xyz"}, Dir: t.TempDir()}); !errors.Is(err, ErrStart) {
		t.Errorf("missing program: %v", err)
	}
}

// The environment is an allowlist: the variables builds need pass, everything else is dropped and counted; a
// credential's name or value is dropped even under an allowed prefix, and the user's own additions pass unless
// their value looks like a credential or the app holds them as its own keys.
func TestEnvDropsSecrets(t *testing.T) {
	t.Parallel()
	secrets := []string{
		"OPENAI_API_KEY=sk", "MY_SERVICE_TOKEN=t", "AWS_REGION=x", "DB_PASSWORD=p", "GITHUB_TOKEN=g", "ROOTED_KEY=r",
		// session tokens and credentials under names of their own
		"BW_SESSION=bw", "OP_SESSION_my=op", "SECRET_KEY_BASE=rails", "DOCKER_AUTH_CONFIG={}", "SLACK_WEBHOOK_URL=https://hooks.slack.com/x",
		"PASSWORD=p", "TOKEN=t", "SECRET=s", "KEEP=1",
		// by name: agents, the desktop bus and display, database passwords, keys
		"SSH_AUTH_SOCK=/run/user/0/ssh", "SSH_AGENT_PID=12", "DBUS_SESSION_BUS_ADDRESS=unix:path=/run/bus", "DISPLAY=:0",
		"WAYLAND_DISPLAY=wayland-0", "XAUTHORITY=/home/u/.Xauthority", "PGPASSWORD=pg", "MYSQL_PWD=my", "DATABASE_URL=postgres://h/db",
		"STRIPE_KEY=k", "npm_config__authToken=n", "NPM_CONFIG__AUTH=a", "npm_config_//registry.npmjs.org/:_authToken=n", "SENTRY_DSN=https://k@sentry", "DEPLOY_PASS=x",
		// credentials under a toolchain's prefix
		"NODE_AUTH_TOKEN=n", "CARGO_REGISTRY_TOKEN=c", "CARGO_REGISTRIES_MY_TOKEN=c", "UV_INDEX_X_PASSWORD=u", "PIP_INDEX_URL=https://u:p@pypi.example.com/simple",
		"GOAUTH=git", "GOPROXY=https://user:pw@proxy.example.com",
		// by the shape of the value
		"SOME_URL=https://user:hunter2@git.example.com/r.git", "X=ghp_0123456789abcdefghijABCDEFGHIJ012345",
		"Y=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.sig", "Z=AKIAIOSFODNN7EXAMPLE", "W=sk-ant-api03-abcdefghijkl",
		"K=-----BEGIN OPENSSH PRIVATE KEY-----",
		// a token as a URL's user name, and secrets inside option variables
		"REGISTRY_URL=https://ghp0123456789abcdef@npm.pkg.github.com/", "GOPROXY=https://TOKEN@proxy.example.com",
		"HTTPS_PROXY=http://TOKEN@proxy:3128",
		"JAVA_TOOL_OPTIONS=-Xmx2g -Dhttp.proxyPassword=hunter2", "MAVEN_OPTS=-Dsonar.token=abc -Xss4m",
		"GRADLE_OPTS=-Dorg.gradle.project.sonatypePassword=pw", "JAVA_OPTS=-Dapi.key=x -Dfoo.apiKey=k",
		"NODE_OPTIONS=--max-old-space-size=4096 --api-token=abc",
	}
	keep := []string{
		"PATH=/bin", "PWD=/p", "OLDPWD=/o", "HOME=/home/u", "USER=u", "LOGNAME=u", "SHELL=/bin/bash", "LANG=C.UTF-8", "LC_ALL=C",
		"TZ=UTC", "GOFLAGS=-mod=mod", "GOPATH=/home/u/go", "GOTOOLCHAIN=local", "CGO_ENABLED=0", "NODE_OPTIONS=--max-old-space-size=4096",
		"NODE_ENV=test", "npm_config_cache=/home/u/.npm", "CARGO_HOME=/home/u/.cargo", "CARGO_TARGET_DIR=target", "RUSTUP_HOME=/home/u/.rustup",
		"RUSTFLAGS=-Dwarnings", "JAVA_HOME=/usr/lib/jvm/java", "GRADLE_USER_HOME=/home/u/.gradle", "PYTHONPATH=src",
		"PYTHONDONTWRITEBYTECODE=1", "VIRTUAL_ENV=/p/.venv", "PIP_INDEX_URL=https://pypi.example.com/simple", "LD_LIBRARY_PATH=/opt/lib",
		"GIT_AUTHOR_NAME=U", "HTTPS_PROXY=http://proxy:3128", "JAVA_TOOL_OPTIONS=-Xmx2g -Dfile.encoding=UTF-8",
		"MAVEN_OPTS=-Xss4m -Dmaven.repo.local=/home/u/.m2/repository", "GRADLE_OPTS=-Dorg.gradle.daemon=false",
	}
	base := append(append([]string{"TERM=xterm-256color"}, secrets...), keep...)
	got, dropped := cmdenv.Environ(base, nil, []string{"ROOTED_KEY"}, "TMPDIR=/t")
	for _, kv := range secrets {
		if slices.Contains(got, kv) {
			t.Errorf("passed: %s", kv)
		}
	}
	for _, want := range append(keep, "TERM=dumb", "GIT_TERMINAL_PROMPT=0", "TMPDIR=/t") {
		if !slices.Contains(got, want) {
			t.Errorf("missing %s in %v", want, got)
		}
	}
	if dropped != len(secrets) {
		t.Errorf("%d reported dropped, %d were", dropped, len(secrets))
	}
	// What the user adds in Settings passes, by name or prefix; never a credential-shaped value, nor the app's keys.
	got, _ = cmdenv.Environ(base, []string{"KEEP", "BW_SESSION", "MYTOOL_*", "X", "ROOTED_KEY"}, []string{"ROOTED_KEY"}, "MYTOOL_A=1")
	for _, want := range []string{"KEEP=1", "BW_SESSION=bw", "MYTOOL_A=1"} {
		if !slices.Contains(got, want) {
			t.Errorf("the user's %s is missing", want)
		}
	}
	for _, no := range []string{"X=ghp_0123456789abcdefghijABCDEFGHIJ012345", "ROOTED_KEY=r", "TOKEN=t"} {
		if slices.Contains(got, no) {
			t.Errorf("passed although the user allowed other names or its value is a credential: %s", no)
		}
	}
}

func TestConcurrentRuns(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			res, err := Run(context.Background(), Spec{Argv: []string{"sh", "-c", fmt.Sprintf("echo %d; sleep 0.0%d", i, i%10)}, Dir: dir, Env: os.Environ(), Timeout: 10 * time.Second})
			if err != nil || res.Stdout != fmt.Sprintf("%d\n", i) {
				t.Errorf("run %d: %+v, %v", i, res, err)
			}
		})
	}
	wg.Wait()
}

func TestCapture(t *testing.T) {
	t.Parallel()
	c := newCapture(10, nil)
	c.Write([]byte("hello"))
	if s, cut := c.String(); s != "hello" || cut {
		t.Errorf("under the cap: %q %v", s, cut)
	}
	for _, chunk := range []string{" world", ", and", " the end"} {
		c.Write([]byte(chunk))
	}
	s, cut := c.String()
	if !cut || !strings.HasPrefix(s, "hello") || !strings.HasSuffix(s, "e end") || !strings.Contains(s, "[14 bytes cut]") {
		t.Errorf("over the cap: %q", s)
	}
	var live []string
	c = newCapture(4, func(b []byte) { live = append(live, string(b)) })
	c.Write([]byte("abcdefgh"))
	if len(live) != 1 || live[0] != "abcdefgh" || c.Total() != 8 {
		t.Errorf("live output gets everything: %v", live)
	}
}

func TestAllowedAndPathArgs(t *testing.T) {
	t.Parallel()
	if err := cmdpolicy.Allowed("go", cmdpolicy.DefaultAllowlist); err != nil {
		t.Error(err)
	}
	for _, p := range []string{"curl", "/usr/bin/git", "./go", "", "sh"} {
		var na *cmdpolicy.NotAllowedError
		if err := cmdpolicy.Allowed(p, cmdpolicy.DefaultAllowlist); !errors.As(err, &na) || !strings.Contains(err.Error(), "git, cargo") {
			t.Errorf("Allowed(%q) = %v", p, err)
		}
	}
	tests := []struct {
		argv []string
		want []string
	}{
		{[]string{"rm", "-rf", "a", "b/c"}, []string{"a", "b/c"}},
		{[]string{"rm", "--", "-weird"}, []string{"-weird"}},
		{[]string{"cp", "-t", "/etc", "x"}, []string{"/etc", "x"}},
		{[]string{"mv", "--target-directory=../out", "x"}, []string{"../out", "x"}},
		{[]string{"ls"}, nil},
		{[]string{"find", ".", "../x", "-name", "*.go"}, []string{".", "../x"}},
		{[]string{"find", "-name", "x"}, nil},
		{[]string{"grep", "-rn", "TODO", "src", "/etc/passwd"}, []string{"src", "/etc/passwd"}},
		{[]string{"grep", "-e", "a", "-e", "b", "f1"}, []string{"f1"}},
		{[]string{"grep", "-f", "../patterns", "x"}, []string{"../patterns", "x"}},
		{[]string{"grep", "-A", "3", "pat", "f"}, []string{"f"}},
		{[]string{"go", "build", "/etc"}, nil},
	}
	for _, tt := range tests {
		if got := cmdpolicy.PathArgs(tt.argv); !slices.Equal(got, tt.want) {
			t.Errorf("PathArgs(%q) = %q, want %q", tt.argv, got, tt.want)
		}
	}
}

// alive reports whether pid is a running process: gone, or a zombie waiting for init to reap it, is not.
func alive(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// The state follows the parenthesised command name: "pid (comm) S ..."
	i := strings.LastIndexByte(string(b), ')')
	return i < 0 || i+2 >= len(b) || b[i+2] != 'Z'
}
