package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A project that declares a submodule (.gitmodules and a committed gitlink) but was cloned without it: the user's
// ordinary `git submodule update --init` clones it into .git/modules/<name> and writes sub/.git. That is the new
// repository the committed gitlink leads to, with the configuration git writes for it: the command runs to its
// end, the submodule is there after it, and nothing is reported put back. The same command going on to make that
// repository run a program (core.fsmonitor in its configuration, a hook, its .git re-pointed) is ended, with git
// status polling outside all along, and the way into the repository is gone after it.
func TestSubmoduleUpdateInit(t *testing.T) {
	// The remote is a folder of the project (the sandbox reads nothing else), which git lets a submodule clone
	// from only when told (GIT_ALLOW_PROTOCOL); the project's git configuration is read-only to commands, so the
	// command sets the variable itself.
	update := `import os, subprocess, sys, time
os.environ['GIT_ALLOW_PROTOCOL'] = 'file'
if subprocess.run(['git', 'submodule', 'update', '--init']).returncode != 0:
    sys.exit(1)
print('updated', flush=True)
`
	cases := []struct {
		name, then string
		ended      bool
		// undeclared drops the submodule's .gitmodules entry before the command, which the command writes back
		// before its update: a gitlink not declared before the command, whose repository's making ends it at once.
		undeclared bool
	}{
		{name: "as git does it"},
		{name: "declared by the command itself", ended: true, undeclared: true},
		{name: "then core.fsmonitor in its configuration", ended: true, then: `
open('.git/modules/sub/config', 'a').write('[core]\n\tfsmonitor = "echo ran >> MARKER; false"\n')
time.sleep(4)
print('planted')`},
		{name: "then a hook", ended: true, then: `
open('.git/modules/sub/hooks/post-checkout', 'w').write('#!/bin/sh\necho ran >> MARKER\n')
os.chmod('.git/modules/sub/hooks/post-checkout', 0o755)
time.sleep(4)
print('planted')`},
		{name: "then its .git re-pointed", ended: true, then: `
import shutil
shutil.copytree('.git/modules/sub', 'evil', ignore=shutil.ignore_patterns('*.lock'))
open('evil/config', 'a').write('[core]\n\tfsmonitor = "echo ran >> MARKER; false"\n')
open('sub/.git', 'w').write('gitdir: ../evil\n')
time.sleep(4)
print('planted')`},
	}
	for _, mode := range guardModes(t) {
		for _, c := range cases {
			t.Run(mode+"/"+c.name, func(t *testing.T) {
				fakeHome(t)
				reg, root := registryWithJobs(t, mode, "main.go")
				work := filepath.Join(t.TempDir(), "subsrc")
				src := filepath.Join(root, "upstream", "sub.git")
				marker := filepath.Join(t.TempDir(), "RAN")
				shIn(t, root, marker, `git init -q && git add -A && git commit -qm first &&
					printf 'upstream/\nevil/\n' > .gitignore && git add .gitignore && git commit -qm ignore &&
					`+bareUpstream(work, src)+` &&
					git -c protocol.file.allow=always submodule add -q `+src+` sub && git commit -qm sub &&
					git submodule deinit -q -f sub && rm -rf .git/modules/sub && git submodule init -q`)
				py := update + strings.ReplaceAll(c.then, "MARKER", marker)
				if c.undeclared {
					declared, err := os.ReadFile(filepath.Join(root, ".gitmodules"))
					if err != nil {
						t.Fatal(err)
					}
					shIn(t, root, marker, `git rm -q --cached .gitmodules && rm .gitmodules && git commit -qm undeclare`)
					py = "open('.gitmodules', 'w').write(" + jsonString(string(declared)) + ")\n" + py
				}
				// git status outside all along, never taking the new submodule's index.lock from under git's checkout.
				out := pythonWhileGitPolls(t, reg, root, py)
				if !c.ended {
					if out.StoppedBecause != "" || out.ExitCode != 0 || len(out.GitRestored) > 0 {
						t.Fatalf("git submodule update --init was ended, failed or reported: %+v", out)
					}
					if b, err := os.ReadFile(filepath.Join(root, "sub", "s")); err != nil || string(b) != "s\n" {
						t.Errorf("the submodule is not checked out: %q %v", b, err)
					}
					if s := userGit(t, root, "submodule", "status"); !strings.HasPrefix(s, " ") {
						t.Errorf("git submodule status: %q", s)
					}
					return
				}
				if c.undeclared {
					// Ended by the making of sub/.git, during the update: git's own shape is let run only where the
					// project declared the submodule before the command.
					if strings.Contains(out.Stdout, "updated") || !strings.Contains(out.StoppedBecause, "sub/.git") || out.ExitCode != 137 {
						t.Errorf("the update was not ended at sub/.git's making: exit %d, %q, %q", out.ExitCode, out.StoppedBecause, out.Stdout)
					}
					if _, err := os.Lstat(filepath.Join(root, "sub", ".git")); err == nil {
						t.Errorf("sub/.git, which the command made, is still there")
					}
					return
				}
				if !strings.Contains(out.Stdout, "updated") {
					t.Fatalf("the update itself did not run: %+v", out)
				}
				if out.StoppedBecause == "" || strings.Contains(out.Stdout, "planted") {
					t.Errorf("the command was not ended: %+v", out)
				}
				userGit(t, root, "status")
				ran, _ := os.ReadFile(marker)
				t.Logf("%s: git outside ran the payload %d times before the command was ended", mode, strings.Count(string(ran), "ran"))
				os.Remove(marker)
				userGit(t, root, "status")
				userGit(t, root, "-C", "sub", "checkout", "-q", "HEAD")
				if ran, _ := os.ReadFile(marker); len(ran) > 0 {
					t.Errorf("git outside still runs the payload after the command")
				}
			})
		}
	}
}
