//go:build linux

package shell

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/cmdenv"
	"github.com/rooted-dev/rooted/backend/sandbox"
)

// In its own mount namespace a command can change nothing of what Policy.ReadOnly lists: not write a file, nor
// replace, rename or remove it, nor add a file to a folder listed, nor swap the folder for another. Each attempt
// fails, and the files are as they were at every moment. Without a namespace the result says the paths were only
// watched, the weaker mode.
func TestReadOnlyPathsCannotBeChanged(t *testing.T) {
	t.Parallel()
	for mode, e := range processModes(t, false) {
		t.Run(mode, func(t *testing.T) {
			cfg := filepath.Join(e.project, ".git", "config")
			hooks := filepath.Join(e.project, ".git", "hooks")
			os.MkdirAll(hooks, 0o755)
			os.WriteFile(cfg, []byte("[core]\n\tbare = false\n"), 0o644)
			os.WriteFile(filepath.Join(hooks, "pre-commit"), []byte("#!/bin/sh\ntrue\n"), 0o755)
			policy := e.policy
			policy.ReadOnly = []string{cfg, hooks, filepath.Join(e.project, "gone-already")}
			attempts := map[string]string{
				"append":            `echo '[core] fsmonitor = x' >> .git/config`,
				"truncate":          `: > .git/config`,
				"rename over":       `echo x > c2 && mv -f c2 .git/config`,
				"remove":            `rm -f .git/config`,
				"rename away":       `mv .git/config .git/config.old`,
				"a new hook":        `echo x > .git/hooks/post-checkout`,
				"change a hook":     `echo x >> .git/hooks/pre-commit`,
				"replace hooks":     `rm -rf .git/hooks`,
				"hooks renamed":     `mv .git/hooks .git/h2 && mkdir .git/hooks && echo x > .git/hooks/pre-commit`,
				"a link over hooks": `ln -sfn /tmp .git/hooks`,
			}
			for name, script := range attempts {
				res, err := Run(context.Background(), Spec{
					Argv: []string{"sh", "-c", script}, Dir: e.project, Env: cmdenv.Env(os.Environ(), nil, "HOME="+e.outside, "TMPDIR="+e.tmp),
					Timeout: 20 * time.Second, Policy: policy, Sandbox: e.info,
				})
				if err != nil {
					t.Fatal(err)
				}
				if mode == "subreaper" {
					if res.Sandbox.Protection != "watched (weaker)" {
						t.Errorf("%s: protection %q", name, res.Sandbox.Protection)
					}
					continue // the watching is the caller's (package tools tests it)
				}
				if res.Sandbox.Protection != "read-only" {
					t.Errorf("%s: protection %q", name, res.Sandbox.Protection)
				}
				if res.ExitCode == 0 {
					t.Errorf("%s: the command succeeded: %+v", name, res)
				}
				if b, err := os.ReadFile(cfg); err != nil || string(b) != "[core]\n\tbare = false\n" {
					t.Errorf("%s: .git/config is now %q, %v", name, b, err)
				}
				if b, err := os.ReadFile(filepath.Join(hooks, "pre-commit")); err != nil || string(b) != "#!/bin/sh\ntrue\n" {
					t.Errorf("%s: the hook is now %q, %v", name, b, err)
				}
				if entries, _ := os.ReadDir(hooks); len(entries) != 1 {
					t.Errorf("%s: the hooks folder holds %v", name, entries)
				}
			}
			// What is not listed stays writable, next to what is.
			res := e.run(t, "sh", "-c", "echo ok > .git/index.lock && mv .git/index.lock .git/index && cat .git/index")
			if res.ExitCode != 0 || res.Stdout != "ok\n" {
				t.Errorf("the rest of .git is not writable: %+v", res)
			}
		})
	}
}

// killedRootedEnv makes the test binary play Rooted: run the command in the JSON spec through the sandbox, print
// "running" once it has started, and wait to be killed.
const killedRootedEnv = "ROOTED_TEST_PLAY_ROOTED"

type playRooted struct {
	Argv    []string
	Dir     string
	Policy  sandbox.Policy
	Sandbox sandbox.Info
}

func init() {
	s := os.Getenv(killedRootedEnv)
	if s == "" {
		return
	}
	// A helper's stages never come back from this; the process that plays Rooted does, able to start them.
	sandbox.RunHelperIfAsked()
	var p playRooted
	if err := json.Unmarshal([]byte(s), &p); err != nil {
		panic(err)
	}
	os.Unsetenv(killedRootedEnv)
	Run(context.Background(), Spec{
		Argv: p.Argv, Dir: p.Dir, Env: os.Environ(), Timeout: time.Hour, Policy: p.Policy, Sandbox: p.Sandbox,
		Live: func(_ string, b []byte) { os.Stdout.Write(b) },
	})
	os.Exit(0)
}

// Nothing a command started outlives Rooted killed with KILL in the middle of it: not the command, not a process
// it detached (setsid, double fork, TERM ignored). In a PID namespace the kernel ends them with the helper; as a
// subreaper the helper kills them all when Rooted's death is signalled to it.
func TestNothingOutlivesAKilledRooted(t *testing.T) {
	t.Parallel()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for mode, e := range processModes(t, false) {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			token := fmt.Sprintf("7%d.%09d", rand.IntN(9), rand.IntN(1e9))
			marker := filepath.Join(e.project, "marker")
			detached := "(trap '' TERM HUP; setsid sh -c \"trap '' TERM HUP; sleep " + token + "; echo escaped > " + marker + "\" &)"
			spec, _ := json.Marshal(playRooted{
				Argv: []string{"sh", "-c", detached + "; echo running; sleep " + token}, Dir: e.project,
				Policy: e.policy, Sandbox: e.info,
			})
			rooted := exec.Command(self, "-test.run", "^$")
			rooted.Env = append(os.Environ(), killedRootedEnv+"="+string(spec), "HOME="+e.outside, "TMPDIR="+e.tmp)
			out, _ := rooted.StdoutPipe()
			rooted.Stderr = os.Stderr
			if err := rooted.Start(); err != nil {
				t.Fatal(err)
			}
			buf := make([]byte, 64)
			n, _ := out.Read(buf)
			if !strings.Contains(string(buf[:n]), "running") {
				rooted.Process.Kill()
				t.Fatalf("the command did not start: %q", buf[:n])
			}
			if len(survivors(token)) < 2 {
				t.Fatalf("the command and its detached process are not both running: %q", survivors(token))
			}
			rooted.Process.Signal(syscall.SIGKILL)
			rooted.Wait()
			var left []string
			for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
				if left = survivors(token); len(left) == 0 {
					break
				}
			}
			if len(left) > 0 {
				for _, s := range left {
					var pid int
					fmt.Sscanf(s, "%d:", &pid)
					syscall.Kill(pid, syscall.SIGKILL)
				}
				t.Fatalf("processes outlived the killed Rooted: %q", left)
			}
		})
	}
}

// A folder above a read-only path is pinned: renaming it (which would carry the binds away with it and free the
// name for a folder the command builds, a new .git whose config runs a program) fails, as does removing it, while
// what it holds and is not listed stays writable. Without the pin the same rename succeeds: the binds alone do not
// hold the folder above them.
func TestPinnedFoldersCannotBeRenamed(t *testing.T) {
	t.Parallel()
	e, ok := processModes(t, false)["pid namespace"]
	if !ok {
		t.Skip("no PID namespace here: nothing is bound (the watched mode is package tools')")
	}
	setup := func(t *testing.T) (git, cfg, nm string) {
		t.Helper()
		os.RemoveAll(filepath.Join(e.project, ".git"))
		os.RemoveAll(filepath.Join(e.project, ".gitx"))
		os.RemoveAll(filepath.Join(e.project, "web"))
		os.RemoveAll(filepath.Join(e.project, "web_old"))
		git, cfg = filepath.Join(e.project, ".git"), filepath.Join(e.project, ".git", "config")
		nm = filepath.Join(e.project, "web", "node_modules")
		os.MkdirAll(filepath.Join(git, "objects"), 0o755)
		os.MkdirAll(filepath.Join(nm, "foo"), 0o755)
		os.WriteFile(cfg, []byte("[core]\n\tbare = false\n"), 0o644)
		os.WriteFile(filepath.Join(nm, "foo", "cli.sh"), []byte("legit\n"), 0o755)
		return git, cfg, nm
	}
	swap := `mv .git .gitx && mkdir .git && echo '[core] fsmonitor = x' > .git/config`
	swapWeb := `mv web web_old && mkdir -p web/node_modules/foo && echo evil > web/node_modules/foo/cli.sh`
	for _, pinned := range []bool{false, true} {
		git, cfg, nm := setup(t)
		policy := e.policy
		policy.ReadOnly = []string{cfg, nm}
		if pinned {
			policy.Pinned = []string{git, filepath.Join(e.project, "web")}
		}
		for _, script := range []string{swap, swapWeb, "rm -rf .git", "rmdir web"} {
			res, err := Run(context.Background(), Spec{
				Argv: []string{"sh", "-c", script}, Dir: e.project, Env: cmdenv.Env(os.Environ(), nil, "HOME="+e.outside, "TMPDIR="+e.tmp),
				Timeout: 20 * time.Second, Policy: policy, Sandbox: e.info,
			})
			if err != nil {
				t.Fatal(err)
			}
			b, _ := os.ReadFile(cfg)
			cli, _ := os.ReadFile(filepath.Join(nm, "foo", "cli.sh"))
			held := string(b) == "[core]\n\tbare = false\n" && string(cli) == "legit\n"
			if pinned && (res.ExitCode == 0 || !held) {
				t.Errorf("pinned: %q succeeded or changed what is protected (exit %d, config %q, cli %q)", script, res.ExitCode, b, cli)
			}
			if !pinned && (script == swap || script == swapWeb) && held {
				t.Errorf("without the pin %q was refused: the test no longer shows the attack (%+v)", script, res)
			}
			git, cfg, nm = setup(t)
			_ = git
		}
		if pinned {
			res, _ := Run(context.Background(), Spec{
				Argv: []string{"sh", "-c", "echo ok > .git/objects/x && mv .git/objects/x .git/objects/y && cat .git/objects/y && echo ok > web/a && mv web/a web/b"},
				Dir:  e.project, Env: cmdenv.Env(os.Environ(), nil, "HOME="+e.outside, "TMPDIR="+e.tmp), Timeout: 20 * time.Second, Policy: policy, Sandbox: e.info,
			})
			if res.ExitCode != 0 || res.Stdout != "ok\n" {
				t.Errorf("what a pinned folder holds is not writable: %+v", res)
			}
		}
	}
}
