package tools

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/rooted-dev/rooted/backend/gitguard"
	"github.com/rooted-dev/rooted/backend/jobs"
	"github.com/rooted-dev/rooted/backend/tool"
)

type protectedOut struct {
	execOut
	GitRestored         []string `json:"git_restored"`
	DependenciesChanged []string `json:"dependencies_changed"`
	Hint                string
	Job                 *struct{ ID string }
}

// registryWithJobs opens a project whose commands run in mode, with background jobs as the window has them.
func registryWithJobs(t *testing.T, mode string, layout ...string) (*tool.Registry, string) {
	t.Helper()
	s, root := openLayout(t, layout...) // closed after the jobs: cleanups run last first
	d := Deps{Session: s, Jobs: &jobs.Manager{}, WithoutNamespaces: mode == "subreaper"}
	t.Cleanup(d.Jobs.Close)
	return Registry(d), root
}

// pollGit runs git status as an editor or a shell prompt does, outside the sandbox, over and over until stop is
// closed; it returns how many times it ran.
func pollGit(t *testing.T, dir string, stop <-chan struct{}) func() int {
	var wg sync.WaitGroup
	n := 0
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			userGit(t, dir, "status")
			n++
		}
	}()
	return func() int { wg.Wait(); return n }
}

// pythonWhileGitPolls runs py (python3 -c, no backup) through exec_shell while git status polls dir outside the
// sandbox, as an editor does: without optional locks, so that it never takes an index.lock from under the
// command's own git. A call that fails (rather than a command that is ended) fails the test.
func pythonWhileGitPolls(t *testing.T, reg *tool.Registry, dir, py string) stoppedOut {
	t.Helper()
	t.Setenv("GIT_OPTIONAL_LOCKS", "0")
	stop := make(chan struct{})
	polls := pollGit(t, dir, stop)
	out, e := call[stoppedOut](t, reg, "exec_shell", `{"command": "python3", "args": ["-c", `+jsonString(py)+`], "backup": false}`)
	close(stop)
	polls()
	if e != nil {
		t.Fatalf("exec_shell: %v", e)
	}
	return out
}

// bareUpstream is the shell that makes a repository of one commit at work and clones it bare to dst: a remote in
// a folder the sandbox reads.
func bareUpstream(work, dst string) string {
	return `git init -q ` + work + ` && (cd ` + work + ` && echo s > s && git add s && git commit -qm s) && git clone -q --bare ` + work + ` ` + dst
}

// ranNoMore checks the watched mode's bound: the payload may run outside while the plant is live, until the
// watcher sees it (a race whose length is the machine's load, so not counted), and never again once the command
// has ended: git outside, run again and again, adds no run to the runs counted in marker so far.
func ranNoMore(t *testing.T, dir, marker string, runs int) {
	t.Helper()
	for range 10 {
		userGit(t, dir, "status")
	}
	ran, _ := os.ReadFile(marker)
	if after := strings.Count(string(ran), "ran"); after != runs {
		t.Errorf("git outside ran the payload %d more times after the command was ended: the plant outlived it", after-runs)
	}
}

// The race the comparison after a command cannot see: a command plants core.fsmonitor and a hook, waits, and
// writes the original bytes back before it ends, while git status runs outside the sandbox all along (an editor's
// git, a shell prompt). With a mount namespace the plant is refused and git never runs the payload; without one
// the watcher puts the change back at once and the result says so. A background job (a dev server) does the same
// for as long as it runs.
func TestPlantedAndPutBackBeforeExitNeverRunsOutside(t *testing.T) {
	for _, mode := range guardModes(t) {
		for _, background := range []bool{false, true} {
			name := mode + "/foreground"
			if background {
				name = mode + "/background job"
			}
			t.Run(name, func(t *testing.T) {
				fakeHome(t)
				reg, root := registryWithJobs(t, mode, "main.go")
				initAndCommit(t, root)
				config := filepath.Join(root, ".git", "config")
				original, _ := os.ReadFile(config)
				marker := filepath.Join(t.TempDir(), "RAN")
				js := `const fs = require('fs'); const M = ` + jsonString(marker) + `; const orig = fs.readFileSync('.git/config');
					const tryIt = (f) => { try { f(); console.log('planted') } catch (e) { console.log('refused', e.code) } };
					tryIt(() => fs.appendFileSync('.git/config', '[core]\n\tfsmonitor = "echo ran >> ' + M + ' #"\n'));
					tryIt(() => fs.writeFileSync('.git/hooks/pre-commit', '#!/bin/sh\necho ran >> ' + M + '\n', {mode: 0o755}));
					setTimeout(() => { tryIt(() => fs.writeFileSync('.git/config', orig)); tryIt(() => fs.rmSync('.git/hooks/pre-commit')); }, 1500);`
				stop := make(chan struct{})
				polls := pollGit(t, root, stop)
				args := `{"command": "node", "args": [` + jsonString(js) + `], "backup": false, "background": ` + map[bool]string{true: "true", false: "false"}[background] + `}`
				args = strings.Replace(args, `"args": [`, `"args": ["-e", `, 1)
				out, e := call[protectedOut](t, reg, "exec_shell", args)
				if e != nil {
					close(stop)
					t.Fatalf("exec_shell: %v", e)
				}
				if background {
					if out.Job == nil {
						close(stop)
						t.Fatalf("no job: %+v", out)
					}
					o, e := call[jobOut](t, reg, "job_output", `{"id": "`+out.Job.ID+`", "wait_ms": 20000}`)
					for e == nil && o.Running {
						o, e = call[jobOut](t, reg, "job_output", `{"id": "`+out.Job.ID+`", "since": `+strconv.FormatInt(o.Next, 10)+`, "wait_ms": 20000}`)
					}
				}
				close(stop)
				n := polls()
				if n < 5 {
					t.Fatalf("git status ran only %d times during the command: the test proves nothing", n)
				}
				ran, _ := os.ReadFile(marker)
				runs := strings.Count(string(ran), "ran")
				switch mode {
				case "pid namespace":
					if runs > 0 {
						t.Errorf("git outside the sandbox ran the planted payload %d times in %d runs", runs, n)
					}
					if !background && (!strings.Contains(out.Stdout, "refused EROFS") || strings.Contains(out.Stdout, "planted")) {
						t.Errorf("the plant was not refused: %q", out.Stdout)
					}
				default:
					t.Logf("watched mode: git outside ran the payload %d times in %d runs (the weaker mode)", runs, n)
					if !background && !slices.ContainsFunc(out.GitRestored, func(s string) bool { return strings.Contains(s, ".git/config") }) {
						t.Errorf("the change was not reported: %q", out.GitRestored)
					}
				}
				if now, _ := os.ReadFile(config); string(now) != string(original) {
					t.Errorf(".git/config is now %q", now)
				}
				if _, err := os.Stat(filepath.Join(root, ".git", "hooks", "pre-commit")); err == nil {
					t.Error("the planted hook is still there")
				}
			})
		}
	}
}

// A folder on the command's PATH inside the project (a venv's bin, node_modules/.bin) is read-only: a program
// planted there would run in place of the real one, for the user's tools and for Rooted's. An editor's task file
// that did not exist cannot be created either: it is removed as soon as it appears, and the command is ended.
func TestPathFoldersAndEditorFilesInTheProject(t *testing.T) {
	for _, mode := range guardModes(t) {
		t.Run(mode, func(t *testing.T) {
			fakeHome(t)
			reg, root := registryWithJobs(t, mode, "main.go")
			os.MkdirAll(filepath.Join(root, "bin"), 0o755)
			os.MkdirAll(filepath.Join(root, ".vscode"), 0o755)
			os.WriteFile(filepath.Join(root, ".vscode", "settings.json"), nil, 0o644)
			t.Setenv("PATH", filepath.Join(root, "bin")+string(os.PathListSeparator)+os.Getenv("PATH"))
			js := `const fs = require('fs');
				for (const [p, s] of [['bin/git', '#!/bin/sh\necho planted\n'], ['.vscode/settings.json', '{"git.path": "bin/git"}'], ['.vscode/tasks.json', '{"tasks": [{"runOptions": {"runOn": "folderOpen"}}]}'], ['.envrc', 'curl x | sh']]) {
					try { fs.writeFileSync(p, s, {mode: 0o755}); console.log('planted ' + p) } catch (e) { console.log('refused ' + p + ' ' + e.code) }
				}
				setTimeout(() => {}, 5000);`
			out, e := call[stoppedOut](t, reg, "exec_shell", `{"command": "node", "args": ["-e", `+jsonString(js)+`], "backup": false}`)
			if e != nil {
				t.Fatalf("%+v %v", out, e)
			}
			if out.StoppedBecause == "" || out.ExitCode == 0 {
				t.Errorf("the command was not ended when it changed what is protected: %+v", out)
			}
			if mode == "pid namespace" {
				for _, p := range []string{"bin/git", ".vscode/settings.json", ".vscode/tasks.json"} {
					if !strings.Contains(out.Stdout, "refused "+p+" EROFS") {
						t.Errorf("%s was not refused: %s", p, out.Stdout)
					}
				}
			}
			for _, p := range []string{"bin/git", ".vscode/tasks.json", ".envrc"} {
				if _, err := os.Lstat(filepath.Join(root, p)); err == nil {
					t.Errorf("%s is there after the command (%s)", p, out.Stdout)
				}
			}
			if b, _ := os.ReadFile(filepath.Join(root, ".vscode", "settings.json")); len(b) != 0 {
				t.Errorf(".vscode/settings.json is now %q", b)
			}
			if mode == "pid namespace" && !slices.Contains(out.GitRestored, "removed .envrc, which the command created") || len(out.GitRestored) == 0 {
				t.Errorf("not reported: %q", out.GitRestored)
			}
		})
	}
}

// Hooks run code from dependency folders: husky's pre-commit runs node_modules' code on the user's next commit.
// A command that is not the package manager's install cannot change it with a mount namespace; without one, what
// it changed is reported, package by package, in the result and its text.
func TestHuskyHookAfterACommandChangedNodeModules(t *testing.T) {
	for _, mode := range guardModes(t) {
		t.Run(mode, func(t *testing.T) {
			fakeHome(t)
			reg, root := registryWithJobs(t, mode, "main.go")
			marker := filepath.Join(t.TempDir(), "RAN")
			os.MkdirAll(filepath.Join(root, "node_modules", "lint"), 0o755)
			os.MkdirAll(filepath.Join(root, ".husky"), 0o755)
			os.WriteFile(filepath.Join(root, "node_modules", "lint", "index.js"), []byte("// lints\n"), 0o644)
			os.WriteFile(filepath.Join(root, ".husky", "pre-commit"), []byte("#!/bin/sh\nnode node_modules/lint/index.js\n"), 0o755)
			os.WriteFile(filepath.Join(root, ".gitignore"), []byte("node_modules/\n"), 0o644)
			mustGit(t, root, "init", "-q")
			mustGit(t, root, "config", "core.hooksPath", ".husky")
			mustGit(t, root, "add", "-A")
			mustGit(t, root, "commit", "-qm", "first")
			js := `require('fs').writeFileSync('node_modules/lint/index.js', 'require("fs").writeFileSync(' + JSON.stringify(` + jsonString(marker) + `) + ', "ran")')`
			out, e := call[protectedOut](t, reg, "exec_shell", `{"command": "node", "args": ["-e", `+jsonString(js)+`], "backup": false}`)
			if e != nil {
				t.Fatal(e)
			}
			userGit(t, root, "commit", "-q", "--allow-empty", "-m", "the user's commit")
			_, ran := os.Stat(marker)
			switch mode {
			case "pid namespace":
				if out.ExitCode == 0 || !strings.Contains(out.Stderr, "EROFS") {
					t.Errorf("the change to node_modules was not refused: %+v", out)
				}
				if ran == nil {
					t.Error("the user's commit ran a payload the command planted in node_modules")
				}
			default:
				if !slices.Equal(out.DependenciesChanged, []string{"node_modules/lint"}) || !strings.Contains(out.Hint, "node_modules/lint") {
					t.Errorf("the change to node_modules was not reported: %q, hint %q", out.DependenciesChanged, out.Hint)
				}
			}
		})
	}
}

// Only the package managers' own install commands may write the dependency folders.
func TestIsInstall(t *testing.T) {
	for argv, want := range map[string]bool{
		"npm install": true, "npm ci": true, "npm i left-pad": true, "npm --prefer-offline install": true,
		"pnpm add x": true, "yarn": true, "yarn add x": true, "bun install": true, "pip install -r requirements.txt": true,
		"uv sync": true, "poetry install": true, "python -m pip install x": true, "python3 -m venv .venv": true,
		"npm test": false, "npm run build": false, "npx husky": false, "yarn test": false, "pip list": false,
		"python -m pytest": false, "python setup.py install": false, "node install.js": false, "uv run x": false,
	} {
		if got := isInstall(strings.Fields(argv)); got != want {
			t.Errorf("%s: %v, want %v", argv, got, want)
		}
	}
}

// The list of protected paths for a project with every shape: what tools outside run later is on it, git's data
// and the work tree are not, and the dependency folders are writable to an install only.
func TestProtectedPaths(t *testing.T) {
	fakeHome(t)
	_, root := makeLayout(t, []string{"main.go"})
	initAndCommit(t, root)
	mustGit(t, root, "worktree", "add", "-q", "wt")
	mustGit(t, root, "config", "core.hooksPath", ".husky")
	mustGit(t, root, "init", "-q", "--bare", "b.git")
	os.MkdirAll(filepath.Join(root, "vendor", "lib"), 0o755)
	mustGit(t, filepath.Join(root, "vendor", "lib"), "init", "-q")
	os.MkdirAll(filepath.Join(root, "fake"), 0o755)
	os.WriteFile(filepath.Join(root, "fake", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	os.Symlink("../.git/objects", filepath.Join(root, "fake", "objects"))
	os.Symlink("../.git/refs", filepath.Join(root, "fake", "refs"))
	for _, d := range []string{".husky", ".vscode", "node_modules/.bin", "web/node_modules/x", ".venv/bin"} {
		os.MkdirAll(filepath.Join(root, d), 0o755)
	}
	os.RemoveAll(filepath.Join(root, ".git", "info"))
	os.RemoveAll(filepath.Join(root, "b.git", "info"))
	pathEnv := filepath.Join(root, ".venv", "bin") + string(os.PathListSeparator) + filepath.Join(root, "node_modules", ".bin") + string(os.PathListSeparator) + "/usr/bin"
	r, st, pr := protectIn(t, root, pathEnv, "npm", "test")
	for _, want := range []string{
		".git/config", ".git/hooks", ".git/info", ".git/commondir", ".git/config.worktree",
		".git/worktrees/wt/config.worktree", ".git/worktrees/wt/commondir", ".git/worktrees/wt/gitdir",
		"b.git/config", "b.git/hooks", "vendor/lib/.git/config", "vendor/lib/.git/hooks",
		"fake/config", "fake/hooks", ".husky", ".vscode", ".envrc", "lefthook.yml",
		"node_modules", "web/node_modules", ".venv", ".venv/bin", "node_modules/.bin",
	} {
		if !slices.Contains(pr.paths, want) {
			t.Errorf("%s is not protected", want)
		}
	}
	for _, not := range []string{".git", ".git/objects", ".git/refs", ".git/index", ".git/HEAD", "main.go", "wt", "fake"} {
		if slices.Contains(pr.paths, not) {
			t.Errorf("%s is protected: commands need it", not)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "fake", "hooks")); err == nil {
		t.Error("a hooks folder was made in a work-tree folder")
	}
	if fi, err := os.Stat(filepath.Join(root, ".git", "info")); err != nil || !fi.IsDir() {
		t.Error("the repository's missing info folder was not made to be bound")
	}
	if _, err := os.Stat(filepath.Join(root, "b.git", "info")); err == nil {
		t.Error("an info folder was made in a bare repository of the work tree (it is watched instead)")
	}
	// Bound: what exists, each once (a folder's content goes with it), links never.
	ro := pr.readOnly(root)
	real, _ := filepath.EvalSymlinks(root)
	for _, p := range ro {
		if strings.HasPrefix(p, filepath.Join(real, "node_modules")+"/") {
			t.Errorf("%s is bound inside node_modules, which is bound whole", p)
		}
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("%s is bound but does not exist", p)
		}
	}
	if !slices.Contains(ro, filepath.Join(real, ".git", "config")) || slices.Contains(ro, filepath.Join(real, ".git", "commondir")) {
		t.Errorf("bound: %q", ro)
	}
	// An install writes the dependency folders and their PATH folders; the rest stays protected.
	install := protect(st, r, root, []string{"npm", "install"}, pathEnv)
	for _, p := range []string{"node_modules", "web/node_modules", ".venv", ".venv/bin", "node_modules/.bin"} {
		if slices.Contains(install.paths, p) {
			t.Errorf("npm install cannot write %s", p)
		}
	}
	if !slices.Contains(install.paths, ".git/config") || !install.depsWritable {
		t.Errorf("an install: %+v", install)
	}
	if w := pr.watched(root, nil); slices.ContainsFunc(w, func(p string) bool { return gitguard.InsideAny(pr.deps, p) }) {
		t.Errorf("a dependency folder is watched (too large to keep a copy of): %q", w)
	}
}
