package tools

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/gitguard"
)

// shIn runs a shell script in dir, outside the sandbox (the user's own terminal), with $MARKER set.
func shIn(t *testing.T, dir, marker, script string) string {
	t.Helper()
	c := exec.Command("sh", "-c", script)
	c.Dir, c.Env = dir, append(os.Environ(), "MARKER="+marker, "GIT_AUTHOR_NAME=u", "GIT_AUTHOR_EMAIL=u@example.com", "GIT_COMMITTER_NAME=u", "GIT_COMMITTER_EMAIL=u@example.com")
	b, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v %s", script, err, b)
	}
	return string(b)
}

// protectIn opens the project at root, scans its git files as the guard does before a command, and works out what
// is protected while argv runs with pathEnv as its PATH: where a test of the protection starts from. The root is
// closed when the test ends.
func protectIn(t *testing.T, root, pathEnv string, argv ...string) (*os.Root, *gitguard.State, protection) {
	t.Helper()
	r, err := os.OpenRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	st := gitguard.New().Scan(r, root)
	return r, st, protect(st, r, root, argv, pathEnv)
}

// What the guard compares after a command is held while it runs: each shape of git's files below is changed by a
// command, left so for a while with git status running outside the sandbox all along (an editor, a shell prompt),
// and changed back before the command ends. The comparison after the run cannot see that; a read-only bind (or,
// where nothing can be bound, the watcher, which ends the command at once) must keep git outside from ever
// running the payload. after, when set, is what the user does next, outside, and must run nothing either.
func TestWhatTheGuardComparesIsHeldDuringTheRun(t *testing.T) {
	commit := "git add -A && git commit -qm first"
	cases := []struct {
		name, setup, script, after string
		// bound: the plant meets a read-only bind in the namespace mode (else it is watched in both modes).
		bound bool
		// stoppedFor is a path the result must say the command was ended for, in the modes it is watched in.
		stoppedFor string
		// gone are paths that must not exist after the command.
		gone []string
	}{
		{
			name: "a submodule's .git file re-pointed",
			setup: `git init -q && ` + commit + ` && git init -q ../subsrc && (cd ../subsrc && echo s > s && git add s && git commit -qm s) &&
				git -c protocol.file.allow=always submodule add -q ../subsrc sub && git commit -qm sub`,
			script: `import os, shutil, time
orig = open('sub/.git').read()
os.mkdir('evilgd')
for x in ['HEAD', 'index']:
    shutil.copyfile('.git/modules/sub/' + x, 'evilgd/' + x)
for x in ['objects', 'refs']:  # git status outside may be writing a lock file in them: copied until whole
    while True:
        try:
            shutil.copytree('.git/modules/sub/' + x, 'evilgd/' + x, dirs_exist_ok=True, ignore=shutil.ignore_patterns('*.lock'))
            break
        except shutil.Error:
            pass
open('evilgd/config', 'w').write('[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = ../sub\n\tfsmonitor = "echo ran >> MARKER; false"\n')
open('sub/.git', 'w').write('gitdir: ../evilgd\n')
time.sleep(4)
open('sub/.git', 'w').write(orig)
print('restored')`,
			bound: true, stoppedFor: "sub/.git",
		},
		{
			name:  "the project's own .git file (a separate git folder) re-pointed",
			setup: `git init -q --separate-git-dir="$GITDIR" && ` + commit,
			script: `import os, time
orig = open('.git').read()
os.makedirs('ev/objects'); os.makedirs('ev/refs/heads')
open('ev/HEAD', 'w').write('ref: refs/heads/main\n')
open('ev/config', 'w').write('[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = ..\n\tfsmonitor = "echo ran >> MARKER; false"\n')
open('.git', 'w').write('gitdir: ev\n')
time.sleep(4)
open('.git', 'w').write(orig)
print('restored')`,
			bound: true, stoppedFor: ".git",
		},
		{
			name:  "an include target that does not exist yet",
			setup: `git init -q && git config --add include.path ../.gitconfig.local && printf '.gitconfig.local\n' > .gitignore && ` + commit,
			script: `import time, os
open('.gitconfig.local', 'w').write('[core]\n\tfsmonitor = "echo ran >> MARKER; false"\n')
time.sleep(4)
os.remove('.gitconfig.local'); print('removed')`,
			stoppedFor: ".gitconfig.local", gone: []string{".gitconfig.local"},
		},
		{
			name: "a core.hooksPath set in an included file",
			setup: `git init -q && printf '[core]\n\thooksPath = .githooks\n' > .gitconfig-shared && mkdir .githooks &&
				printf '#!/bin/sh\nexit 0\n' > .githooks/pre-commit && chmod +x .githooks/pre-commit &&
				git config --add include.path ../.gitconfig-shared && ` + commit,
			script: `import os, time
for name in ['.githooks/pre-commit', '.githooks/post-commit']:
    open(name, 'w').write('#!/bin/sh\necho ran >> MARKER\nexit 0\n'); os.chmod(name, 0o755); print('wrote', name)
time.sleep(5)  # still running when the change is seen: "ended at once" is what the case checks
print('done')`,
			after: `echo x >> f && git add -A && git commit -qm user`,
			bound: true, stoppedFor: ".githooks", gone: []string{".githooks/post-commit"},
		},
		{
			name: "hooks behind a link (.git/hooks -> ../tools/hooks)",
			setup: `git init -q && mkdir -p tools/hooks && printf '#!/bin/sh\nexit 0\n' > tools/hooks/pre-commit &&
				chmod +x tools/hooks/pre-commit && rm -rf .git/hooks && ln -s ../tools/hooks .git/hooks && ` + commit,
			script: `import os, time
for name in ['tools/hooks/pre-commit', 'tools/hooks/post-commit']:
    open(name, 'w').write('#!/bin/sh\necho ran >> MARKER\nexit 0\n'); os.chmod(name, 0o755); print('wrote', name)
time.sleep(5)  # still running when the change is seen: "ended at once" is what the case checks
print('done')`,
			after: `echo x >> f && git add -A && git commit -qm user`,
			bound: true, stoppedFor: "tools/hooks", gone: []string{"tools/hooks/post-commit"},
		},
		{
			name:  "a protected file whose folder is made during the run",
			setup: `git init -q && ` + commit,
			script: `import os, time
os.mkdir('.config'); time.sleep(1.0)
open('.config/mise.toml', 'w').write('[hooks]\nenter = "echo ran >> MARKER"\n')
time.sleep(3)
os.remove('.config/mise.toml'); os.rmdir('.config'); print('removed')`,
			stoppedFor: ".config/mise.toml", gone: []string{".config/mise.toml"},
		},
		{
			// A repository made during the run, entered by the user's git status through a gitlink the command adds
			// to the index: the .git where a new gitlink leads is watched from the moment the gitlink appears.
			name:  "a new repository with a gitlink to it",
			setup: `git init -q && ` + commit,
			script: `import subprocess, time, shutil
subprocess.run(['git', 'init', '-q', 'sub'], check=True)
open('sub/.git/config', 'a').write('[core]\n\tfsmonitor = "echo ran >> MARKER; false"\n')
while subprocess.run(['git', 'update-index', '--add', '--cacheinfo', '160000,1111111111111111111111111111111111111111,sub']).returncode:
    time.sleep(0.01)  # git status outside holds the index lock
time.sleep(4)
subprocess.run(['git', 'update-index', '--force-remove', 'sub'])
shutil.rmtree('sub')
print('removed')`,
			// Disarmed as soon as its configuration holds more than a new repository's, before any gitlink leads
			// there: what stays is a plain repository.
			stoppedFor: "sub/.git",
		},
		{
			// The gitlink first, the repository after.
			name:  "a gitlink, then a repository where it leads",
			setup: `git init -q && ` + commit,
			script: `import subprocess, time, shutil
while subprocess.run(['git', 'update-index', '--add', '--cacheinfo', '160000,1111111111111111111111111111111111111111,sub']).returncode:
    time.sleep(0.01)  # git status outside holds the index lock
time.sleep(0.5)
subprocess.run(['git', 'init', '-q', 'sub'], check=True)
open('sub/.git/config', 'a').write('[core]\n\tfsmonitor = "echo ran >> MARKER; false"\n')
time.sleep(4)
subprocess.run(['git', 'update-index', '--force-remove', 'sub'])
shutil.rmtree('sub')
print('removed')`,
			stoppedFor: "sub/.git", gone: []string{"sub/.git"},
		},
		{
			// The first put-back ends the command with KILL at once: a command that ignores TERM gets no grace
			// period to plant again in.
			name:  "re-planting a commondir with TERM ignored",
			setup: `git init -q && ` + commit,
			script: `import os, time, shutil, signal
signal.signal(signal.SIGTERM, signal.SIG_IGN)
os.mkdir('ec')
shutil.copyfile('.git/HEAD', 'ec/HEAD')
for x in ['objects', 'refs']:
    shutil.copytree('.git/' + x, 'ec/' + x)
open('ec/config', 'w').write('[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tfsmonitor = "echo ran >> MARKER; false"\n')
end = time.time() + 6
while time.time() < end:
    try:
        open('.git/commondir', 'w').write('../ec\n'); print('planted', flush=True)
    except Exception:
        pass
    time.sleep(0.002)
print('done')`,
			stoppedFor: ".git/commondir", gone: []string{".git/commondir"},
		},
	}
	for _, mode := range guardModes(t) {
		for _, c := range cases {
			t.Run(mode+"/"+c.name, func(t *testing.T) {
				fakeHome(t)
				reg, root := registryWithJobs(t, mode, "main.go")
				marker := filepath.Join(t.TempDir(), "RAN")
				t.Setenv("GITDIR", filepath.Join(t.TempDir(), "gd"))
				shIn(t, root, marker, c.setup)
				os.WriteFile(filepath.Join(root, "atk.py"), []byte(strings.ReplaceAll(c.script, "MARKER", marker)), 0o644)
				stop := make(chan struct{})
				polls := pollGit(t, root, stop)
				out, e := call[stoppedOut](t, reg, "exec_shell", `{"command": "python3 atk.py", "backup": false}`)
				close(stop)
				n := polls()
				if e != nil {
					t.Fatalf("exec_shell: %v", e)
				}
				if n < 5 {
					t.Fatalf("git status ran only %d times during the command: the test proves nothing", n)
				}
				if c.after != "" {
					shIn(t, root, marker, c.after)
				}
				ran, _ := os.ReadFile(marker)
				runs := strings.Count(string(ran), "ran")
				t.Logf("git outside ran the payload %d times in %d runs; exit %d; stopped because %q; stderr %.300q", runs, n, out.ExitCode, out.StoppedBecause, out.Stderr)
				if strings.Contains(out.Stdout, "restored") || strings.Contains(out.Stdout, "removed") || strings.Contains(out.Stdout, "done") {
					t.Errorf("the command ran to its end, undoing its plant itself: %q", out.Stdout)
				}
				if c.bound && mode == "pid namespace" {
					if runs > 0 {
						t.Errorf("git outside the sandbox ran the payload %d times: the plant was not refused", runs)
					}
					if !strings.Contains(out.Stderr, "Read-only file system") {
						t.Errorf("the plant did not meet a read-only bind: %q", out.Stderr)
					}
				} else {
					// Watched: the race until the watcher sees the plant, then the command is KILLed and the plant
					// put back.
					ranNoMore(t, root, marker, runs)
					if !strings.Contains(out.StoppedBecause, c.stoppedFor) || out.ExitCode != 137 {
						t.Errorf("the command was not ended at once for changing %s: exit %d, %q", c.stoppedFor, out.ExitCode, out.StoppedBecause)
					}
					// KILL, not TERM and a grace period: the loop above plants every 2 ms, some 1,000 times in the
					// 2 s a TERM would have given it.
					if planted := strings.Count(out.Stdout, "planted"); planted > 100 {
						t.Errorf("the command planted %d times after it was caught", planted)
					}
				}
				for _, p := range c.gone {
					if _, err := os.Lstat(filepath.Join(root, p)); err == nil {
						t.Errorf("%s is still there", p)
					}
				}
			})
		}
	}
}

// Every path the guard compares after a command is held during it: bound read-only where a mount namespace binds
// what exists, watched otherwise (what does not exist yet, a link). Checked over every shape of git's files.
func TestGuardedIsProtected(t *testing.T) {
	fakeHome(t)
	_, root := makeLayout(t, []string{"main.go"})
	marker := filepath.Join(t.TempDir(), "RAN")
	t.Setenv("GITDIR", filepath.Join(t.TempDir(), "gd"))
	shIn(t, root, marker, `git init -q && git add -A && git commit -qm first &&
		git init -q ../subsrc && (cd ../subsrc && echo s > s && git add s && git commit -qm s) &&
		git -c protocol.file.allow=always submodule add -q ../subsrc sub && git commit -qm sub &&
		git worktree add -q wt && git config --add include.path ../.gitconfig-shared &&
		git config --add include.path ../.gitconfig.local && git config --add include.path ../conf/missing/deep &&
		printf '[core]\n\thooksPath = .githooks\n[include]\n\tpath = .gitconfig-more\n' > .gitconfig-shared &&
		printf '[alias]\n\tx = status\n' > .gitconfig-more &&
		mkdir .githooks && printf '#!/bin/sh\n' > .githooks/pre-commit &&
		mkdir -p tools/hooks && printf '#!/bin/sh\n' > tools/hooks/pre-commit && ln -s ../../tools/hooks/pre-commit .git/hooks/pre-push &&
		mkdir -p .git/rebase-merge && printf 'pick 1 x\n' > .git/rebase-merge/git-rebase-todo &&
		mkdir -p nested && git init -q nested && ln -s ../tools/hooks nested/.git/hooks-link && rm -rf nested/.git/hooks && ln -s ../../tools/hooks nested/.git/hooks`)
	_, st, pr := protectIn(t, root, "/usr/bin", "make")
	guarded := st.Guarded()
	for _, want := range []string{"sub/.git", "wt/.git", ".gitconfig-shared", ".gitconfig-more", ".gitconfig.local", "conf/missing/deep", ".githooks", ".git/hooks/pre-push"} {
		if !slices.Contains(guarded, want) {
			t.Errorf("the guard does not record %s: %q", want, guarded)
		}
	}
	real, _ := filepath.EvalSymlinks(root)
	bound := pr.readOnly(root)
	live := pr.watched(root, bound)
	for _, g := range append(guarded, "tools/hooks", "tools/hooks/pre-commit") { // and what the hooks links lead to
		if !slices.ContainsFunc(pr.paths, func(p string) bool { return g == p || strings.HasPrefix(g, p+"/") }) {
			t.Errorf("%s is guarded after the command but not protected during it", g)
			continue
		}
		full := filepath.Join(real, filepath.FromSlash(g))
		held := slices.ContainsFunc(bound, func(b string) bool { return full == b || strings.HasPrefix(full, b+"/") }) ||
			slices.ContainsFunc(live, func(p string) bool { return g == p || strings.HasPrefix(g, p+"/") })
		if !held {
			t.Errorf("%s is neither bound nor watched in the namespace mode (bound %q, watched %q)", g, bound, live)
		}
	}
	// A stopped rebase's todo list stays writable: git rewrites it, and removes its folder, as the rebase goes on.
	if slices.ContainsFunc(pr.paths, func(p string) bool { return strings.HasPrefix(p, ".git/rebase-merge") }) {
		t.Errorf("a rebase's todo list is protected: a command could not continue the rebase")
	}
	// Bound, so not watched: a change to it is the user's (git remote add in a terminal), never undone.
	if slices.Contains(live, ".git/config") || !slices.Contains(live, ".gitconfig.local") || !slices.Contains(live, "nested/.git/hooks") {
		t.Errorf("watched in the namespace mode: %q", live)
	}
}

// While a command or a background job runs in the namespace mode, the user's own changes outside the sandbox to
// what is bound read-only (git remote add in a terminal, an editor saving .vscode/settings.json) are theirs: not
// undone, and the job is not ended for them.
func TestUsersOwnEditsDuringAJobStay(t *testing.T) {
	if !slices.Contains(guardModes(t), "pid namespace") {
		t.Skip("no mount namespace here: the watcher cannot tell the user's change from the command's")
	}
	fakeHome(t)
	reg, root := registryWithJobs(t, "pid namespace", "main.go")
	os.MkdirAll(filepath.Join(root, ".vscode"), 0o755)
	os.WriteFile(filepath.Join(root, ".vscode", "settings.json"), []byte("{}\n"), 0o644)
	initAndCommit(t, root)
	os.WriteFile(filepath.Join(root, "srv.py"), []byte("import time\nprint('serving', flush=True)\ntime.sleep(4)\nprint('bye')\n"), 0o644)
	out, e := call[stoppedOut](t, reg, "exec_shell", `{"command": "python3 srv.py", "backup": false, "background": true}`)
	if e != nil || out.Job == nil {
		t.Fatalf("exec_shell: %v %+v", e, out)
	}
	time.Sleep(1500 * time.Millisecond) // the job is running, its watcher too
	userGit(t, root, "remote", "add", "origin", "https://example.com/x.git")
	os.WriteFile(filepath.Join(root, ".vscode", "settings.json"), []byte(`{"editor.tabSize": 2}`+"\n"), 0o644)
	o, e := call[jobHintOut](t, reg, "job_output", `{"id": "`+out.Job.ID+`", "wait_ms": 20000}`)
	for e == nil && o.Running {
		o, e = call[jobHintOut](t, reg, "job_output", `{"id": "`+out.Job.ID+`", "wait_ms": 20000}`)
	}
	if !strings.Contains(userGit(t, root, "remote", "-v"), "example.com") {
		t.Error("the user's git remote add was undone")
	}
	if b, _ := os.ReadFile(filepath.Join(root, ".vscode", "settings.json")); !strings.Contains(string(b), "tabSize") {
		t.Errorf("the user's editor settings were undone: %q", b)
	}
	if !strings.Contains(o.Output, "bye") {
		t.Errorf("the job was ended for the user's change: %q %+v", o.Output, o)
	}
}
