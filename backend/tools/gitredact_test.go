package tools

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type redactedOut struct {
	Stdout, Stderr string
	ExitCode       int `json:"exit_code"`
	Sandbox        struct{ Processes, Redacted string }
}

// Credentials in the project's own git configuration (a token in a remote's URL, an http.extraHeader, an inline
// credential helper, a forge token, an included file's) never reach a command: in the mount namespace the command
// reads a copy without them, whatever it reads it with (git config --list, git remote -v, the file's bytes
// encoded), while git in the sandbox still works on the rest; without a namespace the result says the file was
// readable and the secrets are cut from the output. The file itself is unchanged.
func TestGitConfigCredentialsNeverReachCommands(t *testing.T) {
	fakeHome(t)
	for _, mode := range guardModes(t) {
		t.Run(mode, func(t *testing.T) {
			reg, root := openRegistryIn(t, mode, "main.go")
			initAndCommit(t, root)
			mustGit(t, root, "remote", "add", "origin", "https://x-access-token:ghs_TOKENINURL0123@github.com/org/repo.git")
			mustGit(t, root, "config", "http.https://github.com/.extraheader", "AUTHORIZATION: basic SECRETHEADER456")
			mustGit(t, root, "config", "credential.helper", "!f() { echo password=SECRETHELPER789; }; f")
			mustGit(t, root, "config", "include.path", "../.gitconfig.local")
			os.WriteFile(filepath.Join(root, ".gitconfig.local"), []byte("[github]\n\ttoken = SECRETINCLUDED000\n"), 0o644)
			config := filepath.Join(root, ".git", "config")
			before, _ := os.ReadFile(config)
			secrets := []string{"ghs_TOKENINURL0123", "SECRETHEADER456", "SECRETHELPER789", "SECRETINCLUDED000"}
			for _, c := range []struct{ args, want string }{
				{`{"command": "git config --list --local --includes"}`, "remote.origin.url=https://github.com/org/repo.git"},
				{`{"command": "git remote -v"}`, "origin\thttps://github.com/org/repo.git (fetch)"},
				{`{"command": "git log --format=%s"}`, "first"},
				{`{"command": "python3", "args": ["-c", "import base64; print(base64.b64encode(open('.git/config','rb').read() + open('.gitconfig.local','rb').read()).decode())"]}`, ""},
			} {
				out, e := call[redactedOut](t, reg, "exec_shell", c.args)
				if e != nil {
					t.Fatalf("%s: %v", c.args, e)
				}
				if mode != "pid namespace" {
					// The command read the file itself: what it printed is cut, not rewritten.
					c.want = strings.ReplaceAll(c.want, "https://github.com", "https://[redacted]@github.com")
				}
				if out.ExitCode != 0 || !strings.Contains(out.Stdout, c.want) {
					t.Errorf("%s: exit %d, stdout %q, stderr %q", c.args, out.ExitCode, out.Stdout, out.Stderr)
				}
				seen := out.Stdout + out.Stderr
				if dec, err := base64.StdEncoding.DecodeString(strings.TrimSpace(out.Stdout)); err == nil {
					seen = string(dec)
				}
				for _, s := range secrets {
					if strings.Contains(seen, s) && mode == "pid namespace" {
						t.Errorf("%s: the command read %s:\n%s", c.args, s, seen)
					}
					if strings.Contains(out.Stdout+out.Stderr, s) {
						t.Errorf("%s: the output holds %s", c.args, s)
					}
				}
				want := map[string]string{"pid namespace": "copies without credentials", "subreaper": "readable (weaker)"}[mode]
				if out.Sandbox.Redacted != want {
					t.Errorf("%s: sandbox.redacted %q, want %q", c.args, out.Sandbox.Redacted, want)
				}
			}
			if now, _ := os.ReadFile(config); string(now) != string(before) {
				t.Errorf(".git/config changed:\n%s", now)
			}
		})
	}
}
