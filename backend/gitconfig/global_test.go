package gitconfig

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// A command's git sees the user's name, aliases-free settings and URL rewrites, and none of the credentials or
// programs: a token in a url.<base>, an http.extraHeader, credential helpers, a forge token, core.fsmonitor,
// interactive.diffFilter, gpg.ssh.defaultKeyCommand, nor a key no list names (the copy keeps an allow-list).
func TestSandboxGlobalLeavesOutCredentials(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, ".gitconfig"), []byte(`[user]
	name = Me
	email = me@example.com
[url "https://TOKEN-url@github.com/"]
	insteadOf = https://github.com/
[url "git@github.com:"]
	pushInsteadOf = https://github.com/
[http "https://example.com"]
	extraHeader = Authorization: Bearer TOKEN-header
[http]
	extraheader = AUTHORIZATION: basic TOKEN-header2
	proxy = http://user:TOKEN-proxy@proxy:8080
[credential]
	helper = store
[credential "https://example.com"]
	username = TOKEN-user
[github]
	token = TOKEN-github
[core]
	fsmonitor = "sh -c TOKEN-fsmonitor"
	excludesFile = ~/.gitignore_global
[alias]
	st = status
[includeIf "gitdir:~/work/"]
	path = ~/work.gitconfig
[init]
	defaultBranch = main
[commit]
	verbose
[interactive]
	diffFilter = "sh -c evil"
[gpg "ssh"]
	defaultKeyCommand = "sh -c evil"
[help]
	autocorrect = immediate
[some "future"]
	setting = x
`), 0o644)
	os.WriteFile(filepath.Join(home, ".gitignore_global"), []byte("*.swp\n"), 0o644)
	dir := t.TempDir()
	env := map[string]string{"HOME": home, "GIT_CONFIG_NOSYSTEM": "1"}
	vars, err := SandboxGlobal(dir, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "gitconfig"))
	if strings.Contains(string(b), "TOKEN") {
		t.Errorf("a credential reached the copy:\n%s", b)
	}
	keys, err := List(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"user.name": {"Me"}, "user.email": {"me@example.com"}, "url.git@github.com:.pushinsteadof": {"https://github.com/"},
		"init.defaultbranch": {"main"}, "commit.verbose": {""},
		"core.excludesfile": {"~/.gitignore_global", filepath.Join(dir, "git-excludesfile")},
	}
	if !reflect.DeepEqual(keys, want) {
		t.Errorf("copy:\n%s\nkeys %v\nwant %v", b, keys, want)
	}
	if ig, _ := os.ReadFile(filepath.Join(dir, "git-excludesfile")); string(ig) != "*.swp\n" {
		t.Errorf("the global excludes file was not copied: %q", ig)
	}
	if !strings.Contains(strings.Join(vars, " "), "GIT_CONFIG_GLOBAL="+filepath.Join(dir, "gitconfig")) {
		t.Errorf("env %q", vars)
	}
}

// A repository's own help.autocorrect does not make a command's git run the subcommand it guesses for a mistyped
// one (git pus as git push): the command runs as written or fails, as Rooted judged it.
func TestSandboxGlobalStopsAutocorrect(t *testing.T) {
	t.Parallel()
	repo := t.TempDir()
	dir := t.TempDir()
	vars, err := SandboxGlobal(dir, func(k string) string { return map[string]string{"HOME": t.TempDir(), "GIT_CONFIG_NOSYSTEM": "1"}[k] })
	if err != nil {
		t.Fatal(err)
	}
	run := func(env []string, args ...string) (string, error) {
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = repo, append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := run(nil, "init", "-q"); err != nil {
		t.Fatal(out)
	}
	if out, err := run(nil, "config", "help.autocorrect", "immediate"); err != nil {
		t.Fatal(out)
	}
	if out, err := run(nil, "statsu"); err != nil || !strings.Contains(out, "On branch") {
		t.Skipf("this git does not autocorrect here (%v: %s): nothing to stop", err, out)
	}
	if out, err := run(vars, "statsu"); err == nil || strings.Contains(out, "On branch") {
		t.Errorf("git statsu ran git status under the command's configuration: %v %s", err, out)
	}
}
