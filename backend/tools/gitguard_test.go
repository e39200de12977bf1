package tools

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/sandbox"
	"github.com/rooted-dev/rooted/backend/tool"
)

type guardedOut struct {
	execOut
	GitRestored []string `json:"git_restored"`
	Hint        string
}

// fakeHome points HOME (and git's global configuration) at a fresh folder: the user's git below runs as the
// user's would, with only a name and an e-mail address configured.
func fakeHome(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[user]\n\tname = User\n\temail = u@example.com\n[init]\n\tdefaultBranch = main\n"), 0o644)
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(home, ".gitconfig"))
	return home
}

// userGit runs git as the user does, outside any sandbox: whatever the repository's settings and hooks say runs.
func userGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, _ := cmd.CombinedOutput()
	return string(out)
}

func mustGit(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v %s", args, err, out)
	}
}

// initAndCommit makes root a git repository and commits all it holds as "first".
func initAndCommit(t *testing.T, root string) {
	t.Helper()
	mustGit(t, root, "init", "-q")
	mustGit(t, root, "add", "-A")
	mustGit(t, root, "commit", "-qm", "first")
}

// Nothing a command leaves in any repository of the project runs when the user next runs git outside the sandbox.
// One row per way in: each payload plants a program that writes a marker file; after the command, the user runs
// git status, git add and git commit in each repository, and the marker must not appear. Rooted says what it put
// back.
func TestNothingACommandLeavesInGitRunsLater(t *testing.T) {
	const hook = `'#!/bin/sh\ntouch ' + M + '\n'`
	fsmonitor := func(where string) string {
		return `fs.appendFileSync('` + where + `', '\n[core]\n\tfsmonitor = "touch ' + M + ' #"\n');`
	}
	// plantedRepo makes a git folder at dir whose settings run the marker and take the project as work tree.
	plantedRepo := func(dir string) string {
		return `fs.mkdirSync('` + dir + `/refs/heads', {recursive: true}); fs.mkdirSync('` + dir + `/objects'); fs.writeFileSync('` + dir + `/HEAD', 'ref: refs/heads/main\n'); ` +
			`fs.writeFileSync('` + dir + `/config', '[core]\n\tworktree = ' + process.cwd() + '\n\tfsmonitor = "touch ' + M + ' #"\n'); `
	}
	rows := []struct {
		name    string
		setup   func(t *testing.T, root string)
		payload string   // node code; M is the marker's path, git(...) runs git in the sandbox
		repos   []string // where the user runs git afterwards (default: the project)
		// historyIn is another git folder (root-relative) that may hold the project's history afterwards.
		historyIn string
	}{
		{name: "fsmonitor appended to .git/config", setup: initAndCommit, payload: fsmonitor(".git/config")},
		{name: "capital letters", setup: initAndCommit, payload: `fs.appendFileSync('.git/config', '\n[CORE]\n\tFsMonitor = "touch ' + M + ' #"\n');`},
		{name: "a comment line over 1 MiB before it", setup: initAndCommit, payload: `fs.appendFileSync('.git/config', '\n#' + 'x'.repeat(1100000) + '\n[core]\n\tfsmonitor = "touch ' + M + ' #"\n');`},
		{name: "a UTF-8 byte-order mark", setup: initAndCommit, payload: `const c = fs.readFileSync('.git/config', 'utf8'); fs.writeFileSync('.git/config', '\ufeff[core]\n\tfsmonitor = "touch ' + M + ' #"\n' + c);`},
		{name: "a value holding ]", setup: initAndCommit, payload: `fs.appendFileSync('.git/config', '\n[core] fsmonitor = "touch ' + M + ' #]"\n');`},
		{name: "a .git folder renamed behind a gitdir file", setup: initAndCommit, payload: `fs.renameSync('.git', '.gx'); fs.writeFileSync('.git', 'gitdir: .gx\n'); ` + fsmonitor(".gx/config")},
		{name: "an absolute gitdir", setup: initAndCommit, payload: `fs.renameSync('.git', '.gx'); fs.writeFileSync('.git', 'gitdir: ' + process.cwd() + '/.gx\n'); ` + fsmonitor(".gx/config")},
		{name: "a .git folder renamed behind a link", setup: initAndCommit, payload: `fs.renameSync('.git', '.gx'); fs.symlinkSync('.gx', '.git'); ` + fsmonitor(".gx/config")},
		// Where .git is read-only in part, removing it fails half-way: its history is then in the command's copy.
		{name: "a gitdir file leading to a copy", setup: initAndCommit, historyIn: ".gx", payload: `fs.cpSync('.git', '.gx', {recursive: true}); fs.rmSync('.git', {recursive: true}); fs.writeFileSync('.git', 'gitdir: .gx\n'); ` + fsmonitor(".gx/config")},
		{name: "a nested repository the command creates and adds", setup: initAndCommit, repos: []string{".", "vendor/lib"}, payload: `git('init', '-q', 'vendor/lib'); fs.writeFileSync('vendor/lib/f', 'x'); git('-C', 'vendor/lib', 'add', 'f'); git('-C', 'vendor/lib', 'commit', '-qm', 'x'); ` + fsmonitor("vendor/lib/.git/config") + ` git('add', 'vendor/lib');`},
		{name: "a nested repository that was there", repos: []string{".", "vendor/lib"}, setup: func(t *testing.T, root string) {
			os.MkdirAll(filepath.Join(root, "vendor", "lib"), 0o755)
			os.WriteFile(filepath.Join(root, "vendor", "lib", "f"), []byte("x"), 0o644)
			initAndCommit(t, filepath.Join(root, "vendor", "lib"))
			initAndCommit(t, root)
		}, payload: fsmonitor("vendor/lib/.git/config")},
		{name: "a project without .git: git init and fsmonitor", payload: `git('init', '-q'); git('add', '-A'); git('commit', '-qm', 'x'); ` + fsmonitor(".git/config")},
		{name: "a project without .git: git init and a hook", payload: `git('init', '-q'); git('add', '-A'); git('commit', '-qm', 'x'); fs.writeFileSync('.git/hooks/pre-commit', ` + hook + `, {mode: 0o755});`},
		{name: "a pre-commit hook", setup: initAndCommit, payload: `fs.writeFileSync('.git/hooks/pre-commit', ` + hook + `, {mode: 0o755});`},
		{name: "a hook that is a link into the work tree", setup: initAndCommit, payload: `fs.writeFileSync('evil.sh', ` + hook + `, {mode: 0o755}); fs.symlinkSync('../../evil.sh', '.git/hooks/pre-commit');`},
		{name: "the hooks folder replaced by a link", setup: initAndCommit, payload: `fs.mkdirSync('h'); fs.writeFileSync('h/pre-commit', ` + hook + `, {mode: 0o755}); fs.rmSync('.git/hooks', {recursive: true}); fs.symlinkSync('../h', '.git/hooks');`},
		{name: ".git/config replaced by a link", setup: initAndCommit, payload: `fs.writeFileSync('cfg', fs.readFileSync('.git/config', 'utf8') + '[core]\n\tfsmonitor = "touch ' + M + ' #"\n'); fs.unlinkSync('.git/config'); fs.symlinkSync('../cfg', '.git/config');`},
		{name: "core.hooksPath into the work tree", setup: initAndCommit, payload: `fs.mkdirSync('h'); fs.writeFileSync('h/pre-commit', ` + hook + `, {mode: 0o755}); fs.appendFileSync('.git/config', '[core]\n\thooksPath = h\n');`},
		{name: "gpg.program with signing on", setup: initAndCommit, payload: `fs.writeFileSync('gpg.sh', ` + hook + `, {mode: 0o755}); fs.appendFileSync('.git/config', '[commit]\n\tgpgsign = true\n[gpg]\n\tprogram = ' + process.cwd() + '/gpg.sh\n');`},
		{name: "a clean filter", setup: initAndCommit, payload: `fs.writeFileSync('.gitattributes', '* filter=x\n'); fs.appendFileSync('.git/config', '[filter "x"]\n\tclean = "sh -c \'touch ' + M + '; cat\'"\n');`},
		{name: "config.worktree with worktreeConfig", setup: initAndCommit, payload: `fs.appendFileSync('.git/config', '[extensions]\n\tworktreeConfig = true\n'); fs.writeFileSync('.git/config.worktree', '[core]\n\tfsmonitor = "touch ' + M + ' #"\n');`},
		{name: "a husky hook changed", setup: func(t *testing.T, root string) {
			os.MkdirAll(filepath.Join(root, ".husky"), 0o755)
			os.WriteFile(filepath.Join(root, ".husky", "pre-commit"), []byte("#!/bin/sh\ntrue\n"), 0o755)
			initAndCommit(t, root)
			mustGit(t, root, "config", "core.hooksPath", ".husky")
		}, payload: `fs.writeFileSync('.husky/pre-commit', ` + hook + `, {mode: 0o755});`},
		{name: "a husky hook added", setup: func(t *testing.T, root string) {
			os.MkdirAll(filepath.Join(root, ".husky"), 0o755)
			initAndCommit(t, root)
			mustGit(t, root, "config", "core.hooksPath", ".husky")
		}, payload: `fs.writeFileSync('.husky/commit-msg', ` + hook + `, {mode: 0o755});`},
		{name: "husky 9: the user's hook beside .husky/_", setup: func(t *testing.T, root string) {
			os.MkdirAll(filepath.Join(root, ".husky", "_"), 0o755)
			os.WriteFile(filepath.Join(root, ".husky", "_", "pre-commit"), []byte("#!/bin/sh\n[ -f .husky/pre-commit ] && sh .husky/pre-commit\nexit 0\n"), 0o755)
			initAndCommit(t, root)
			mustGit(t, root, "config", "core.hooksPath", ".husky/_")
		}, payload: `fs.writeFileSync('.husky/pre-commit', ` + hook + `);`},
		{name: "a file the configuration includes", setup: func(t *testing.T, root string) {
			os.WriteFile(filepath.Join(root, "team.gitconfig"), []byte("[user]\n\tname = Team\n"), 0o644)
			initAndCommit(t, root)
			mustGit(t, root, "config", "include.path", "../team.gitconfig")
		}, payload: fsmonitor("team.gitconfig")},
		{name: "an include added", setup: initAndCommit, payload: `fs.writeFileSync('inc', '[core]\n\tfsmonitor = "touch ' + M + ' #"\n'); fs.appendFileSync('.git/config', '[include]\n\tpath = ../inc\n');`},
		{name: "a submodule's configuration", repos: []string{".", "sub"}, setup: func(t *testing.T, root string) {
			sub := filepath.Join(t.TempDir(), "sub")
			os.MkdirAll(sub, 0o755)
			os.WriteFile(filepath.Join(sub, "s"), []byte("s"), 0o644)
			initAndCommit(t, sub)
			initAndCommit(t, root)
			mustGit(t, root, "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub, "sub")
			mustGit(t, root, "commit", "-qm", "sub")
		}, payload: fsmonitor(".git/modules/sub/config")},
		{name: "a linked worktree's configuration", repos: []string{".", "wt"}, setup: func(t *testing.T, root string) {
			initAndCommit(t, root)
			mustGit(t, root, "worktree", "add", "-q", "wt")
		}, payload: `fs.appendFileSync('.git/config', '[extensions]\n\tworktreeConfig = true\n'); fs.writeFileSync('.git/worktrees/wt/config.worktree', '[core]\n\tfsmonitor = "touch ' + M + ' #"\n');`},
		// git takes fake for a bare repository: any ref it updates there (a tag) runs its reference-transaction hook.
		{name: "a work-tree folder git takes for a repository, objects and refs links", repos: []string{"fake"}, setup: func(t *testing.T, root string) {
			initAndCommit(t, root)
			fake := filepath.Join(root, "fake")
			os.MkdirAll(fake, 0o755)
			os.WriteFile(filepath.Join(fake, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
			os.Symlink("../.git/objects", filepath.Join(fake, "objects"))
			os.Symlink("../.git/refs", filepath.Join(fake, "refs"))
		}, payload: `fs.mkdirSync('fake/hooks', {recursive: true}); fs.writeFileSync('fake/hooks/reference-transaction', ` + hook + `, {mode: 0o755});`},
		{name: "a work-tree folder's commondir pointed at a planted repository", repos: []string{"fake"}, setup: func(t *testing.T, root string) {
			initAndCommit(t, root)
			fake := filepath.Join(root, "fake")
			os.MkdirAll(fake, 0o755)
			os.WriteFile(filepath.Join(fake, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
			os.WriteFile(filepath.Join(fake, "commondir"), []byte("../.git\n"), 0o644)
		}, payload: plantedRepo("evil") + `fs.writeFileSync('fake/commondir', '../evil\n');`},
		{name: "a .git/commondir planted in the project's repository", setup: initAndCommit, payload: plantedRepo("evil") + `fs.writeFileSync('.git/commondir', '../evil\n');`},
		{name: "a .git file leading to a git folder elsewhere in the project", setup: func(t *testing.T, root string) {
			os.MkdirAll(filepath.Join(root, "meta"), 0o755)
			mustGit(t, root, "init", "-q", "--separate-git-dir", filepath.Join(root, "meta", "repo"))
			mustGit(t, root, "add", "main.go")
			mustGit(t, root, "commit", "-qm", "first")
		}, payload: fsmonitor("meta/repo/config")},
		// A repository git reaches and the guard must too: names ending in blanks (git keeps them), a git folder
		// hidden in a bare-looking folder's objects/, a named pipe where the guard reads; each made a submodule of
		// the project by a gitlink, so the user's git status at the root enters it.
		{name: "a .git file and commondir ending in a space, and a gitlink", setup: initAndCommit, repos: []string{"."}, payload: `fs.mkdirSync('cc /refs/heads', {recursive: true}); fs.mkdirSync('cc /objects'); ` + // no HEAD: only the pointers lead to it
			`fs.writeFileSync('cc /config', '[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tfsmonitor = "touch ' + M + ' #"\n'); ` +
			`fs.mkdirSync('gd '); fs.writeFileSync('gd /HEAD', 'ref: refs/heads/main\n'); fs.writeFileSync('gd /commondir', '../cc \n'); ` +
			`fs.mkdirSync('src'); fs.writeFileSync('src/a', 'x'); fs.writeFileSync('src/.git', 'gitdir: ../gd \n'); ` +
			`git('update-index', '--add', '--cacheinfo', '160000,1111111111111111111111111111111111111111,src');`},
		{name: "a repository hidden in a bare-looking folder's objects", setup: initAndCommit, repos: []string{"."}, payload: plantedRepo("b/objects/evil") +
			`fs.mkdirSync('b/refs'); fs.writeFileSync('b/HEAD', 'ref: refs/heads/main\n'); fs.mkdirSync('b/wt'); fs.writeFileSync('b/wt/f', 'f'); ` +
			`fs.writeFileSync('b/wt/.git', 'gitdir: ../objects/evil\n'); git('update-index', '--add', '--cacheinfo', '160000,1111111111111111111111111111111111111111,b/wt');`},
		{name: "named pipes where the guard reads, and a created repository made a submodule", setup: initAndCommit, repos: []string{"."}, payload: `git('init', '-q', 'sub'); ` + fsmonitor("sub/.git/config") +
			`git('update-index', '--add', '--cacheinfo', '160000,1111111111111111111111111111111111111111,sub'); ` +
			`for (const d of ['x', 'y', 'z']) fs.mkdirSync(d); const mk = p => require('child_process').execFileSync('mkfifo', [p]); ` +
			`mk('x/HEAD'); fs.writeFileSync('y/HEAD', 'ref: refs/heads/main\n'); mk('y/commondir'); mk('z/.git'); mk('sub/.git/packed-refs');`},
		{name: "a created repository's settings beyond the deny-list", setup: initAndCommit, repos: []string{".", "sub"}, payload: `git('init', '-q', 'sub'); fs.writeFileSync('sub/f', 'x'); git('-C', 'sub', 'add', 'f'); git('-C', 'sub', 'commit', '-qm', 'x'); ` +
			`fs.appendFileSync('sub/.git/config', '[tar "tgz"]\n\tcommand = "touch ' + M + '; gzip -cn"\n[trailer "x"]\n\tcommand = "touch ' + M + '"\n[imap]\n\ttunnel = "touch ' + M + '"\n');`},
		{name: "a stopped interactive rebase with an exec line", setup: func(t *testing.T, root string) {
			initAndCommit(t, root)
			for _, c := range []string{"second", "third"} {
				os.WriteFile(filepath.Join(root, "main.go"), []byte(c), 0o644)
				mustGit(t, root, "commit", "-qam", c)
			}
		}, payload: `fs.writeFileSync('ed.sh', '#!/bin/sh\n{ echo break; cat "$1"; echo "exec touch ' + M + '"; } > "$1.new" && mv "$1.new" "$1"\n', {mode: 0o755}); ` +
			`require('child_process').spawnSync('git', ['-c', 'user.email=a@b', '-c', 'user.name=a', 'rebase', '-i', 'HEAD~2'], {env: {...process.env, GIT_SEQUENCE_EDITOR: process.cwd() + '/ed.sh'}});`},
		{name: "a stopped cherry-pick with an exec line in its todo", setup: initAndCommit, payload: `fs.mkdirSync('.git/sequencer', {recursive: true}); fs.writeFileSync('.git/sequencer/head', require('child_process').execFileSync('git', ['rev-parse', 'HEAD']).toString()); ` +
			`fs.writeFileSync('.git/sequencer/opts', ''); fs.writeFileSync('.git/sequencer/todo', 'exec touch ' + M + '\n'); fs.writeFileSync('.git/CHERRY_PICK_HEAD', require('child_process').execFileSync('git', ['rev-parse', 'HEAD']).toString());`},
		{name: "a bare repository in the project", repos: []string{"b.git"}, setup: func(t *testing.T, root string) {
			initAndCommit(t, root)
			mustGit(t, root, "init", "-q", "--bare", "b.git")
		}, payload: `fs.appendFileSync('b.git/config', '[alias]\n\tstatus = x\n[core]\n\tfsmonitor = "touch ' + M + ' #"\n'); fs.writeFileSync('b.git/hooks/pre-commit', ` + hook + `, {mode: 0o755});`},
	}
	for _, mode := range guardModes(t) {
		for _, row := range rows {
			t.Run(mode+"/"+row.name, func(t *testing.T) {
				fakeHome(t)
				reg, root := openRegistryIn(t, mode, "main.go")
				marker := filepath.Join(t.TempDir(), "RAN")
				if row.setup != nil {
					row.setup(t, root)
				}
				js := `const M = ` + jsonString(marker) + `; const fs = require('fs'); const git = (...a) => require('child_process').execFileSync('git', a, {stdio: 'pipe'}); ` + row.payload
				out, e := call[guardedOut](t, reg, "exec_shell", `{"command": "node", "args": ["-e", `+jsonString(js)+`], "backup": false}`)
				if e != nil {
					t.Fatalf("the payload did not run: %v", e)
				}
				// Refused (the read-only binds) or put back and reported: either way, never silent.
				refused := out.ExitCode != 0 && (strings.Contains(out.Stderr, "EROFS") || strings.Contains(out.Stderr, "EBUSY"))
				if !refused && (len(out.GitRestored) == 0 || !strings.Contains(out.Hint, "Rooted put it back")) {
					t.Errorf("neither refused nor reported: exit %d, git_restored %q, hint %q, stderr %s", out.ExitCode, out.GitRestored, out.Hint, out.Stderr)
				}
				if want := protectionIn(mode); out.Sandbox.Protection != want {
					t.Errorf("sandbox.protection %q, want %q", out.Sandbox.Protection, want)
				}
				checkUserGit(t, root, row.repos, marker, row.setup != nil, out.GitRestored, row.historyIn)
			})
		}
	}
}

// checkUserGit runs git as the user does, outside the sandbox, in each of repos (the project when none): status,
// add, commit, status. Nothing planted may run (the marker must not appear), and the history must be there.
func checkUserGit(t *testing.T, root string, repos []string, marker string, hadHistory bool, reported []string, historyIn string) {
	t.Helper()
	if repos == nil {
		repos = []string{"."}
	}
	for _, r := range repos {
		dir := filepath.Join(root, r)
		os.WriteFile(filepath.Join(dir, "user-change"), []byte(r), 0o644)
		userGit(t, dir, "status")
		userGit(t, dir, "tag", "user-tag")
		userGit(t, dir, "add", "-A")
		userGit(t, dir, "commit", "-qm", "the user's commit")
		userGit(t, dir, "status")
		userGit(t, dir, "archive", "--format=tgz", "-o", os.DevNull, "HEAD")
		userGit(t, dir, "rebase", "--continue")
		userGit(t, dir, "cherry-pick", "--continue")
	}
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("the user's git ran what the command planted (reported %q)", reported)
	}
	log := userGit(t, root, "log", "--format=%s")
	if historyIn != "" && !strings.Contains(log, "first") {
		log = userGit(t, root, "--git-dir", historyIn, "log", "--format=%s")
	}
	if hadHistory && !strings.Contains(log, "first") {
		t.Errorf("the project's history is gone: %s", log)
	}
}

// guardModes are the ways commands run on this machine: with a mount namespace (the protected paths read-only)
// where the kernel and user allow one, and without (watched and put back), which every machine can be made to do.
func guardModes(t *testing.T) []string {
	t.Helper()
	if sandbox.Probe(sandbox.Policy{}).Processes != "pid namespace" {
		t.Log("no namespaces for this user here: the watched mode alone is tested")
		return []string{"subreaper"}
	}
	return []string{"pid namespace", "subreaper"}
}

func protectionIn(mode string) string {
	if mode == "pid namespace" {
		return "read-only"
	}
	return "watched (weaker)"
}

// openRegistryIn opens a project whose commands run in mode.
func openRegistryIn(t *testing.T, mode string, layout ...string) (*tool.Registry, string) {
	t.Helper()
	s, root := openLayout(t, layout...)
	return Registry(Deps{Session: s, WithoutNamespaces: mode == "subreaper"}), root
}

// What a command may change in git stays: a branch, a commit, a tag. A repository's configuration is what git runs
// programs from, so commands cannot change it at all: refused where it is read-only, put back and reported where
// it is watched. The refusals of commands that would remove or overwrite a repository come before anything runs.
func TestOrdinaryGitChangesStay(t *testing.T) {
	fakeHome(t)
	for _, mode := range guardModes(t) {
		reg, root := openRegistryIn(t, mode, "main.go")
		initAndCommit(t, root)
		config := filepath.Join(root, ".git", "config")
		before, _ := os.ReadFile(config)
		for _, args := range []string{
			`{"command": "git branch -q feature"}`,
			`{"command": "git tag v1"}`,
			`{"command": "git commit -q --allow-empty -m second"}`,
		} {
			out, e := call[guardedOut](t, reg, "exec_shell", args)
			if e != nil || out.ExitCode != 0 || len(out.GitRestored) != 0 {
				t.Fatalf("%s: %s: %+v %v", mode, args, out, e)
			}
		}
		if log := userGit(t, root, "log", "--format=%s %D"); !strings.Contains(log, "second") || !strings.Contains(log, "tag: v1") || !strings.Contains(log, "feature") {
			t.Errorf("%s: an ordinary change was undone: %s", mode, log)
		}
		for _, args := range []string{
			`{"command": "git remote add origin https://example.com/x.git"}`,
			`{"command": "git config user.name Someone"}`,
			`{"command": "node", "args": ["-e", "require('fs').appendFileSync('.git/config', '[core]\\n\\tfsmonitor = x\\n')"]}`,
		} {
			out, e := call[guardedOut](t, reg, "exec_shell", args)
			if e != nil {
				t.Fatalf("%s: %s: %v", mode, args, e)
			}
			switch mode {
			case "pid namespace":
				if out.ExitCode == 0 || !strings.Contains(out.Hint, "read-only to commands") {
					t.Errorf("%s: %s was not refused, or the hint does not say why: %+v", mode, args, out)
				}
			default:
				if !slices.Contains(out.GitRestored, "restored .git/config, which the command changed") {
					t.Errorf("%s: %s was not put back: %+v", mode, args, out)
				}
			}
			if now, _ := os.ReadFile(config); string(now) != string(before) {
				t.Errorf("%s: %s changed .git/config:\n%s", mode, args, now)
			}
		}
		refusedUpFront(t, reg, root)
	}
}

// A command ended for changing the configuration mid-write leaves git's lock beside it (git remote add writes the
// file twice, and the first write ends the command): the lock goes with the command, or every git after it fails
// with "could not lock config file". A lock that was there before the command is not the command's, and stays.
func TestLockLeftByAnEndedCommandGoes(t *testing.T) {
	fakeHome(t)
	reg, root := openRegistryIn(t, "subreaper", "main.go")
	mustGit(t, root, "init", "-q")
	lock := filepath.Join(root, ".git", "config.lock")
	// The lock first, then the change that ends the command: the order git's second write would leave behind.
	plant := `{"command": "node", "args": ["-e", "const fs = require('fs'); fs.writeFileSync('.git/config.lock', ''); fs.appendFileSync('.git/config', '[user]\\n\\tname = x\\n'); setTimeout(() => {}, 30000)"]}`
	out, e := call[guardedOut](t, reg, "exec_shell", plant)
	if e != nil || !slices.Contains(out.GitRestored, "restored .git/config, which the command changed") {
		t.Fatalf("the change was not put back: %+v %v", out, e)
	}
	if _, err := os.Lstat(lock); err == nil {
		t.Fatalf("the lock the ended command left is still there: %+v", out.GitRestored)
	}
	if !slices.Contains(out.GitRestored, "removed .git/config.lock, which git left when the command was ended mid-write") {
		t.Errorf("the result does not say the lock was removed: %+v", out.GitRestored)
	}
	mustGit(t, root, "config", "user.email", "someone@example.com") // fails while the lock is there

	// Not the command's: the user's own lock, there before it, stays.
	if err := os.WriteFile(lock, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	out, e = call[guardedOut](t, reg, "exec_shell", strings.Replace(plant, "fs.writeFileSync('.git/config.lock', ''); ", "", 1))
	if e != nil || len(out.GitRestored) == 0 {
		t.Fatalf("the change was not put back: %+v %v", out, e)
	}
	if _, err := os.Lstat(lock); err != nil {
		t.Errorf("a lock that was there before the command was removed: %v", err)
	}
}

// refusedUpFront checks the refusals of commands that would remove or overwrite a repository, before anything runs.
func refusedUpFront(t *testing.T, reg *tool.Registry, root string) {
	t.Helper()
	for _, args := range []string{
		`{"command": "rm -rf .git"}`, `{"command": "rm -rf ."}`, `{"command": "rm", "args": ["-r", "-f", "./"]}`,
		`{"command": "mv .git old"}`, `{"command": "touch .git/hooks/post-checkout"}`, `{"command": "cp main.go .git/hooks/pre-push"}`,
		`{"command": "mkdir .git/hooks/x"}`,
		`{"command": "find .git -delete"}`, `{"command": "find . -delete"}`, `{"command": "find -name config -delete"}`,
		`{"command": "find . -name main.go -fprint .git/hooks/pre-commit"}`,
	} {
		_, e := call[guardedOut](t, reg, "exec_shell", args)
		if e == nil || e.Code != tool.CodePermissionDenied || !strings.Contains(e.Message, "nothing was run") {
			t.Errorf("%s: %+v", args, e)
		}
	}
	if _, err := os.Stat(filepath.Join(root, ".git", "HEAD")); err != nil {
		t.Fatal("the repository is gone")
	}
	// find -delete where no repository is stays allowed.
	os.MkdirAll(filepath.Join(root, "build"), 0o755)
	os.WriteFile(filepath.Join(root, "build", "x.o"), nil, 0o644)
	if out, e := call[guardedOut](t, reg, "exec_shell", `{"command": "find build -name *.o -delete"}`); e != nil || out.ExitCode != 0 {
		t.Errorf("find build -delete: %+v %v", out, e)
	}
	if _, err := os.Stat(filepath.Join(root, "build", "x.o")); err == nil {
		t.Error("find build -delete deleted nothing")
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
