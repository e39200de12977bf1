package gitconfig

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const sample = `# a comment
[core]
	hooksPath = .githooks ; where the hooks are
	excludesFile = "~/my ignore#1"
	bare
[Remote "Origin"]
	URL = git@example.com:a/b.git
[branch.Main] merge = refs/heads/main
[includeIf "gitdir:~/work/"]
	path = ~/work.gitconfig
[alias]
	st = status
	st = status -sb
`

func TestParse(t *testing.T) {
	t.Parallel()
	got := Parse([]byte(sample))
	want := map[string][]string{
		"core.hookspath":                {".githooks"},
		"core.excludesfile":             {"~/my ignore#1"},
		"core.bare":                     {""},
		"remote.Origin.url":             {"git@example.com:a/b.git"},
		"branch.main.merge":             {"refs/heads/main"},
		"includeif.gitdir:~/work/.path": {"~/work.gitconfig"},
		"alias.st":                      {"status", "status -sb"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("parsed\n%v\nwant\n%v", got, want)
	}
	if !Includes(got) || Includes(Parse([]byte("[core]\n\tpager = less\n"))) {
		t.Error("Includes")
	}
	if Last(got, "alias.st") != "status -sb" || Last(got, "core.pager") != "" {
		t.Error("Last")
	}
}

// git itself reads the sample the same way, key by key (git config --list names keys as Parse does).
func TestParseAgreesWithGit(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	path := filepath.Join(t.TempDir(), "config")
	os.WriteFile(path, []byte(sample), 0o644)
	out, err := exec.Command("git", "config", "--file", path, "--list", "--no-includes").Output()
	if err != nil {
		t.Fatal(err)
	}
	fromGit := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		k, v, _ := strings.Cut(line, "=")
		fromGit[k] = append(fromGit[k], v)
	}
	fromGit["core.bare"] = []string{""} // git lists a bare key without "=", Parse gives it the value ""
	if got := Parse([]byte(sample)); !reflect.DeepEqual(got, fromGit) {
		t.Errorf("Parse\n%v\ngit\n%v", got, fromGit)
	}
}

// A repository a command created keeps what git init and clone write and what commands may set, and nothing
// else: a key that runs a program, whether or not a deny-list names it, goes.
func TestNewRepositoryMayKeep(t *testing.T) {
	for key, want := range map[string]bool{
		"core.repositoryformatversion": true, "core.bare": true, "core.filemode": true, "core.logallrefupdates": true,
		"remote.origin.url": true, "remote.origin.fetch": true, "branch.main.remote": true, "branch.main.merge": true,
		"extensions.objectformat": true, "submodule.lib.url": true, "submodule.lib.active": true, "user.name": true,
		"core.fsmonitor": false, "tar.tgz.command": false, "trailer.x.command": false, "imap.tunnel": false,
		"core.worktree": false, "alias.st": false, "core.hookspath": false, "include.path": false,
		"submodule.lib.update": false, "some.futurekey": false,
	} {
		if got := NewRepositoryMayKeep(key); got != want {
			t.Errorf("NewRepositoryMayKeep(%q) = %v, want %v", key, got, want)
		}
	}
}
