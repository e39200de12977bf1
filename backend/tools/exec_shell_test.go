package tools

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/testtree"
	"github.com/rooted-dev/rooted/backend/tool"
)

type execOut struct {
	Command  []string
	Cwd      string
	Stdout   string
	Stderr   string
	ExitCode int  `json:"exit_code"`
	TimedOut bool `json:"timed_out"`
	Sandbox  struct {
		Active     bool
		Kind       string
		Reason     string
		Processes  string
		Protection string
	}
}

func TestExecShell(t *testing.T) {
	reg, _, root := openRegistry(t, "src/", "src/a.go", "src/b.go", "keep.txt")
	out, e := call[execOut](t, reg, "exec_shell", `{"command": "ls src"}`)
	if e != nil || out.ExitCode != 0 || out.Stdout != "a.go\nb.go\n" || out.Cwd != "." {
		t.Fatalf("ls src: %+v, %v", out, e)
	}
	if runtime.GOOS == "linux" && (!out.Sandbox.Active || out.Sandbox.Kind != "landlock") {
		t.Errorf("sandbox on Linux: %+v", out.Sandbox)
	}
	// It runs in the session's working directory.
	call[map[string]any](t, reg, "change_working_directory", `{"path": "src"}`)
	out, e = call[execOut](t, reg, "exec_shell", `{"command": "ls", "args": ["-1"]}`)
	if e != nil || out.Stdout != "a.go\nb.go\n" || out.Cwd != "src" || strings.Join(out.Command, " ") != "ls -1" {
		t.Fatalf("ls in src: %+v, %v", out, e)
	}
	// A failing program is a result with its exit code.
	out, e = call[execOut](t, reg, "exec_shell", `{"command": "ls no-such-file"}`)
	if e != nil || out.ExitCode == 0 || !strings.Contains(out.Stderr, "no-such-file") {
		t.Fatalf("failing ls: %+v, %v", out, e)
	}
	for _, tt := range []struct{ args, code, field, msg string }{
		{`{"command": "curl http://example.com"}`, tool.CodeNotAllowed, "command", "curl: it is not on this project's allowlist (git, cargo, npm"},
		{`{"command": "/bin/ls"}`, tool.CodeNotAllowed, "command", "programs are named, not given by path"},
		{`{"command": "go test ./... | grep FAIL"}`, tool.CodeInvalidArgument, "command", "pipes are not run"},
		{`{"command": "ls && rm -rf /"}`, tool.CodeInvalidArgument, "command", "one after the other"},
		{`{"command": "echo $HOME"}`, tool.CodeInvalidArgument, "command", "variables are not expanded"},
		{`{"command": "rm -rf ../../"}`, tool.CodeOutsideRoot, "", "rm names ../../; file arguments must stay inside"},
		{`{"command": "ls /etc"}`, tool.CodeOutsideRoot, "", "ls names /etc"},
		{`{"command": "grep -R x ."}`, tool.CodeInvalidArgument, "command", "follows symbolic links"},
		{`{"command": "ls -l", "args": ["x"]}`, tool.CodeInvalidArgument, "command", "program alone"},
		{`{"command": "ls", "timeout_ms": 999999999}`, tool.CodeInvalidArgument, "timeout_ms", "at most 600000"},
		{`{"command": "   "}`, tool.CodeInvalidArgument, "command", "must name a program"},
	} {
		_, e := call[execOut](t, reg, "exec_shell", tt.args)
		if e == nil || e.Code != tt.code || e.Field != tt.field || !strings.Contains(e.Message, tt.msg) {
			t.Errorf("exec_shell %s = %+v; want %s field %q with %q", tt.args, e, tt.code, tt.field, tt.msg)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "keep.txt")); err != nil {
		t.Fatal("a refused command changed the project")
	}
}

func TestExecShellSandboxAndSecrets(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the sandbox is Landlock's")
	}
	t.Setenv("ROOTED_TEST_API_KEY", "secret-value")
	t.Setenv("ROOTED_APP_KEY", "app-secret")
	s, root := openLayout(t)
	reg := Registry(Deps{Session: s, SecretEnv: []string{"ROOTED_APP_KEY"}})
	home, _ := os.UserHomeDir()
	target := filepath.Join(home, "rooted-sandbox-probe-"+filepath.Base(root))
	defer os.Remove(target)
	out, e := call[execOut](t, reg, "exec_shell", `{"command": "node", "args": ["-e", "require('fs').writeFileSync('`+target+`', 'x')"]}`)
	if e != nil || out.ExitCode == 0 || !strings.Contains(out.Stderr, "EACCES") {
		t.Fatalf("node writing into the home directory: %+v, %v", out, e)
	}
	if _, err := os.Stat(target); err == nil {
		t.Fatal("the sandbox let a file be written outside the project")
	}
	out, e = call[execOut](t, reg, "exec_shell", `{"command": "node", "args": ["-e", "console.log(process.env.ROOTED_TEST_API_KEY, process.env.ROOTED_APP_KEY, process.env.TERM)"]}`)
	if e != nil || strings.TrimSpace(out.Stdout) != "undefined undefined dumb" {
		t.Fatalf("environment: %+v, %v", out, e)
	}
	out, e = call[execOut](t, reg, "exec_shell", `{"command": "node", "args": ["-e", "require('fs').writeFileSync('made.txt', 'ok')"]}`)
	if e != nil || out.ExitCode != 0 {
		t.Fatalf("writing inside: %+v, %v", out, e)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "made.txt")); string(b) != "ok" {
		t.Errorf("made.txt = %q", b)
	}
}

func TestExecShellProjectAllowlistAndLiveOutput(t *testing.T) {
	s, root := openLayout(t, "a.txt")
	store := settings.NewStore(filepath.Join(t.TempDir(), "settings.json"))
	if err := store.SetProject(root, settings.Project{Allowlist: []string{"ls"}}); err != nil {
		t.Fatal(err)
	}
	reg := Registry(Deps{Session: s, Settings: store})
	if _, e := call[execOut](t, reg, "exec_shell", `{"command": "git status"}`); e == nil || e.Code != tool.CodeNotAllowed || !strings.Contains(e.Message, "(ls)") {
		t.Errorf("git under an allowlist of ls: %+v", e)
	}
	var mu sync.Mutex
	var live strings.Builder
	ctx := tool.WithProgress(context.Background(), func(stream string, chunk []byte) {
		mu.Lock()
		live.WriteString(stream + ":" + string(chunk))
		mu.Unlock()
	})
	if _, e := reg.Call(ctx, "exec_shell", []byte(`{"command": "ls"}`)); e != nil {
		t.Fatal(e)
	}
	if live.String() != "stdout:a.txt\n" {
		t.Errorf("live output: %q", live.String())
	}
}

// Many commands at once on one session: run with -race.
func TestExecShellConcurrent(t *testing.T) {
	reg, _, _ := openRegistry(t, "d/", "d/x")
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			out, e := call[execOut](t, reg, "exec_shell", `{"command": "ls d"}`)
			if e != nil || out.Stdout != "x\n" {
				t.Errorf("%+v, %v", out, e)
			}
		})
	}
	wg.Wait()
}

// Commands have no network unless the user turns it on for the project; a command that fails for lack of it
// comes back with a hint the model can pass on.
func TestExecShellNetworkOffByDefault(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the sandbox is Landlock's")
	}
	ln := testtree.Listener(t, "")
	s, root := openLayout(t)
	store := settings.NewStore(filepath.Join(t.TempDir(), "settings.json"))
	reg := Registry(Deps{Session: s, Settings: store})
	type netOut struct {
		execOut
		Hint    string
		Sandbox struct{ Active, Network bool }
	}
	script := `{"command": "node", "args": ["-e", "const s = require('net').connect(` + strconv.Itoa(ln.Port) + `, '127.0.0.1', () => { console.log('connected'); s.destroy() }); s.on('error', e => { console.error('request to http://127.0.0.1 failed: connect ' + e.code); process.exit(1) })"]}`
	out, e := call[netOut](t, reg, "exec_shell", script)
	if e != nil || out.ExitCode == 0 || out.Sandbox.Network || !strings.Contains(out.Hint, "no network access") || !strings.Contains(out.Hint, "Settings") {
		t.Fatalf("a new project's command reached the network, or no hint: %+v, %v", out, e)
	}
	if err := store.SetProject(root, settings.Project{Network: settings.NetworkOn}); err != nil {
		t.Fatal(err)
	}
	out, e = call[netOut](t, reg, "exec_shell", script)
	if e != nil || strings.TrimSpace(out.Stdout) != "connected" || out.Hint != "" || !out.Sandbox.Network {
		t.Fatalf("with the network on: %+v, %v", out, e)
	}
}

// A command starts in the working directory as opened through the root when it starts: a folder swapped for a
// symlink out of the project after the agent changed into it is refused, not entered; one swapped for a symlink
// inside the project is entered as the folder it names.
func TestExecShellWorkingDirectoryIsOpenedThroughTheRoot(t *testing.T) {
	reg, _, root := openRegistry(t, "sub/", "sub/mine.txt", "other/", "other/theirs.txt")
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret-name.txt"), []byte("x"), 0o644)
	if _, e := call[map[string]any](t, reg, "change_working_directory", `{"path": "sub"}`); e != nil {
		t.Fatal(e)
	}
	out, e := call[execOut](t, reg, "exec_shell", `{"command": "ls"}`)
	if e != nil || out.Stdout != "mine.txt\n" {
		t.Fatalf("ls in sub: %+v %v", out, e)
	}
	// The folder is replaced by a link out of the project.
	os.RemoveAll(filepath.Join(root, "sub"))
	if err := os.Symlink(outside, filepath.Join(root, "sub")); err != nil {
		t.Fatal(err)
	}
	out, e = call[execOut](t, reg, "exec_shell", `{"command": "ls"}`)
	if e == nil || e.Code != tool.CodeOutsideRoot || strings.Contains(out.Stdout, "secret-name") {
		t.Errorf("ls after sub became a link out: %+v %v", out, e)
	}
	// A link to a folder inside the project is followed, as os.Root follows it.
	os.Remove(filepath.Join(root, "sub"))
	os.Symlink("other", filepath.Join(root, "sub"))
	out, e = call[execOut](t, reg, "exec_shell", `{"command": "ls"}`)
	if e != nil || out.Stdout != "theirs.txt\n" {
		t.Errorf("ls after sub became a link to other: %+v %v", out, e)
	}
}
