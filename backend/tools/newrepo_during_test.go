package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A repository a command makes during its run where no gitlink leads (git init, git clone into a folder of the
// project) is the user's next shell prompt's or editor's: git run there outside the sandbox reads its
// configuration and hooks. What git itself makes runs to its end untouched; a command that goes on to plant a
// program there (core.fsmonitor, a hook) and take it away before it ends is stopped, the plant taken out at once,
// with git status polling in that folder outside all along.
func TestRepositoryMadeDuringTheRun(t *testing.T) {
	cases := []struct {
		name, script string
		ended        bool
	}{
		{name: "git init and a commit", script: `import subprocess
subprocess.run(['git', 'init', '-q', 'made'], check=True)
open('made/f', 'w').write('x\n')
subprocess.run(['git', '-C', 'made', 'add', 'f'], check=True)
subprocess.run(['git', '-C', 'made', '-c', 'user.name=a', '-c', 'user.email=a@b', 'commit', '-qm', 'f'], check=True)
print('done')`},
		{name: "git clone", script: `import subprocess
subprocess.run(['git', 'clone', '-q', 'upstream/x.git', 'made'], check=True)
print('done')`},
		{name: "core.fsmonitor planted, then taken away", ended: true, script: `import subprocess, time
subprocess.run(['git', 'init', '-q', 'made'], check=True)
orig = open('made/.git/config').read()
open('made/.git/config', 'a').write('[core]\n\tfsmonitor = "echo ran >> MARKER; false"\n')
time.sleep(4)
open('made/.git/config', 'w').write(orig)
print('done')`},
		{name: "a hook planted", ended: true, script: `import os, subprocess, time
subprocess.run(['git', 'init', '-q', 'made'], check=True)
open('made/.git/hooks/pre-commit', 'w').write('#!/bin/sh\necho ran >> MARKER\n')
os.chmod('made/.git/hooks/pre-commit', 0o755)
time.sleep(4)
print('done')`},
	}
	for _, mode := range guardModes(t) {
		for _, c := range cases {
			t.Run(mode+"/"+c.name, func(t *testing.T) {
				fakeHome(t)
				reg, root := registryWithJobs(t, mode, "main.go")
				marker := filepath.Join(t.TempDir(), "RAN")
				work := filepath.Join(t.TempDir(), "x")
				shIn(t, root, marker, `git init -q && printf 'made/\nupstream/\n' > .gitignore && git add -A && git commit -qm first && `+
					bareUpstream(work, "upstream/x.git"))
				out := pythonWhileGitPolls(t, reg, filepath.Join(root, "made"), strings.ReplaceAll(c.script, "MARKER", marker))
				if !c.ended {
					if out.StoppedBecause != "" || out.ExitCode != 0 || len(out.GitRestored) > 0 || !strings.Contains(out.Stdout, "done") {
						t.Fatalf("the command was ended, failed or reported: %+v", out)
					}
					if s := userGit(t, filepath.Join(root, "made"), "log", "--oneline"); strings.Contains(s, "fatal") {
						t.Errorf("the new repository is broken: %s", s)
					}
					return
				}
				if out.StoppedBecause == "" || strings.Contains(out.Stdout, "done") {
					t.Errorf("the command was not ended: %+v", out)
				}
				ran, _ := os.ReadFile(marker)
				t.Logf("%s: git outside ran the payload %d times before it was taken out", mode, strings.Count(string(ran), "ran"))
				os.Remove(marker)
				made := filepath.Join(root, "made")
				os.WriteFile(filepath.Join(made, "g"), []byte("y\n"), 0o644)
				userGit(t, made, "status")
				userGit(t, made, "add", "g")
				userGit(t, made, "commit", "-qm", "user")
				if ran, _ := os.ReadFile(marker); len(ran) > 0 {
					t.Errorf("git outside still runs the payload after the command: %+v", out)
				}
			})
		}
	}
}
