package tools

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/gitguard"
)

type jobHintOut struct {
	jobOut
	Hint string `json:"hint"`
}

type stoppedOut struct {
	protectedOut
	StoppedBecause string `json:"stopped_because"`
}

// Renaming a folder above the protected paths (.git, or web around web/node_modules) would carry the read-only
// binds away with it and free the name for a folder the command builds: a new .git whose core.fsmonitor the
// user's git status runs while the command sleeps, the original put back before it ends. With a mount namespace
// the folder is pinned and the rename refused; without one the watcher sees the rename, puts back and ends the
// command. Either way git outside the sandbox never runs the payload, and .git is the original.
func TestSwappedGitFolderNeverRunsOutside(t *testing.T) {
	for _, mode := range guardModes(t) {
		t.Run(mode, func(t *testing.T) {
			fakeHome(t)
			reg, root := registryWithJobs(t, mode, "main.go")
			initAndCommit(t, root)
			original, _ := os.ReadFile(filepath.Join(root, ".git", "config"))
			marker := filepath.Join(t.TempDir(), "RAN")
			js := `const fs = require('fs');
				try { fs.renameSync('.git', '.gitx') } catch (e) { console.log('refused', e.code); process.exit(3) }
				fs.cpSync('.gitx', '.git', {recursive: true, verbatimSymlinks: true, filter: (s) => !/\/(hooks|info)$/.test(s)});
				fs.appendFileSync('.git/config', '[core]\n\tfsmonitor = "echo ran >> ' + ` + jsonString(marker) + ` + '; false"\n');
				setTimeout(() => { fs.rmSync('.git', {recursive: true}); fs.renameSync('.gitx', '.git'); console.log('restored') }, 2500);`
			stop := make(chan struct{})
			polls := pollGit(t, root, stop)
			out, e := call[stoppedOut](t, reg, "exec_shell", `{"command": "node", "args": ["-e", `+jsonString(js)+`], "backup": false}`)
			close(stop)
			if e != nil {
				t.Fatalf("exec_shell: %v", e)
			}
			if n := polls(); n < 5 {
				t.Fatalf("git status ran only %d times during the command: the test proves nothing", n)
			}
			ran, _ := os.ReadFile(marker)
			runs := strings.Count(string(ran), "ran")
			switch mode {
			case "pid namespace":
				if runs > 0 || !strings.Contains(out.Stdout, "refused EBUSY") {
					t.Errorf("the swap was not refused: git outside ran the payload %d times; %+v", runs, out)
				}
			default:
				t.Logf("watched mode: git outside ran the payload %d times before the command was ended", runs)
				if out.StoppedBecause == "" || strings.Contains(out.Stdout, "restored") {
					t.Errorf("the command that renamed .git was not ended: %+v", out)
				}
			}
			if now, _ := os.ReadFile(filepath.Join(root, ".git", "config")); string(now) != string(original) {
				t.Errorf(".git/config is now %q", now)
			}
			if s := userGit(t, root, "status", "--porcelain"); strings.Contains(s, "fatal") {
				t.Errorf("the repository is broken: %s", s)
			}
		})
	}
}

// The same swap around a dependency folder that is not at the root: web/node_modules is bound, web is pinned, so
// a changed package cannot be put in place of the real one by renaming web. Without a namespace the change is
// reported from the fingerprint taken before the command.
func TestSwappedDependencyParentIsRefusedOrReported(t *testing.T) {
	for _, mode := range guardModes(t) {
		t.Run(mode, func(t *testing.T) {
			fakeHome(t)
			cli := filepath.Join("web", "node_modules", "foo", "cli.sh")
			reg, root := registryWithJobs(t, mode, "main.go")
			writeAll(t, root, "web/package.json", cli)
			cli = filepath.Join(root, cli)
			os.WriteFile(cli, []byte("#!/bin/sh\necho legit foo\n"), 0o755)
			js := `const fs = require('fs');
				try { fs.renameSync('web', 'web_old') } catch (e) { console.log('refused', e.code); process.exit(3) }
				fs.cpSync('web_old', 'web', {recursive: true, verbatimSymlinks: true});
				fs.writeFileSync('web/node_modules/foo/cli.sh', '#!/bin/sh\ntouch PWNED\necho legit foo\n');
				fs.rmSync('web_old', {recursive: true});`
			out, e := call[stoppedOut](t, reg, "exec_shell", `{"command": "node", "args": ["-e", `+jsonString(js)+`], "backup": false}`)
			if e != nil {
				t.Fatalf("exec_shell: %v", e)
			}
			b, _ := os.ReadFile(cli)
			switch mode {
			case "pid namespace":
				if !strings.Contains(out.Stdout, "refused EBUSY") || string(b) != "#!/bin/sh\necho legit foo\n" {
					t.Errorf("web was swapped: cli.sh is %q; %+v", b, out)
				}
			default:
				if len(out.DependenciesChanged) == 0 && out.StoppedBecause == "" {
					t.Errorf("the changed package was neither refused nor reported: %+v", out)
				}
			}
		})
	}
}

// A protected path that did not exist cannot be bound (.git/commondir, which would point git at a folder whose
// config runs a program); writing it again as soon as it is put back, in a loop, would turn the moment between a
// change and its undoing into a steady rate. The first put-back ends the command, in the foreground and in the
// background, so the loop never gets past its first turn, and the result says why.
func TestReplantingInALoopEndsTheCommand(t *testing.T) {
	for _, mode := range guardModes(t) {
		for _, background := range []bool{false, true} {
			name := mode + map[bool]string{false: "/foreground", true: "/background job"}[background]
			t.Run(name, func(t *testing.T) {
				fakeHome(t)
				reg, root := registryWithJobs(t, mode, "main.go")
				initAndCommit(t, root)
				marker := filepath.Join(t.TempDir(), "RAN")
				js := `const fs = require('fs');
					for (const x of ['HEAD', 'objects', 'refs']) { try { fs.cpSync('.git/' + x, 'ec/' + x, {recursive: true}) } catch {} }
					fs.writeFileSync('ec/config', '[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tfsmonitor = "echo ran >> ' + ` + jsonString(marker) + ` + '; false"\n');
					let n = 0; const end = Date.now() + 4000;
					const loop = () => {
						if (Date.now() > end) { try { fs.rmSync('.git/commondir') } catch {} ; console.log('done', n); return }
						try { fs.writeFileSync('.git/commondir', '../ec\n'); n++ } catch {}
						setTimeout(loop, 2);
					};
					loop();`
				stop := make(chan struct{})
				polls := pollGit(t, root, stop)
				args := `{"command": "node", "args": ["-e", ` + jsonString(js) + `], "backup": false, "background": ` + map[bool]string{true: "true", false: "false"}[background] + `}`
				out, e := call[stoppedOut](t, reg, "exec_shell", args)
				if e != nil {
					close(stop)
					t.Fatalf("exec_shell: %v", e)
				}
				stdout, hint := out.Stdout, out.Hint // a job's result says what its output does
				if background {
					o, e := call[jobHintOut](t, reg, "job_output", `{"id": "`+out.Job.ID+`", "wait_ms": 20000}`)
					for e == nil && o.Running {
						o, e = call[jobHintOut](t, reg, "job_output", `{"id": "`+out.Job.ID+`", "wait_ms": 20000}`)
					}
					stdout = o.Output
				}
				close(stop)
				n := polls()
				ran, _ := os.ReadFile(marker)
				runs := strings.Count(string(ran), "ran")
				t.Logf("git outside ran the payload %d times in %d runs", runs, n)
				if strings.Contains(stdout, "done") {
					t.Errorf("the re-planting loop ran to its end: %q", stdout)
				}
				if !background && (!strings.Contains(hint, "Rooted ended the command") || !strings.Contains(out.StoppedBecause, ".git/commondir")) {
					t.Errorf("the result does not say the command was ended for changing .git/commondir: %q / %q (%+v)", out.StoppedBecause, hint, out)
				}
				ranNoMore(t, root, marker, runs)
				if _, err := os.Lstat(filepath.Join(root, ".git", "commondir")); err == nil {
					t.Error(".git/commondir is still there")
				}
			})
		}
	}
}

// The files other tools run programs from, at the root and in subfolders (a monorepo package opened on its own,
// a workspace folder), cannot be changed or created by a command: refused where they exist and can be bound, put
// back and the command ended where they cannot.
func TestToolConfigFilesAnywhereAreProtected(t *testing.T) {
	existing := []string{"pkg/.vscode/tasks.json", "pkg/.npmrc", "a.code-workspace", "pkg/b.code-workspace", ".yarnrc.yml", "pkg/.envrc", "pkg/.devcontainer.json"}
	created := []string{
		".devcontainer.json", ".yarnrc", ".pnpmfile.cjs", "bunfig.toml", ".npmrc", "mise.local.toml", ".mise.local.toml",
		".config/mise.toml", ".config/mise/config.toml", "mise/config.toml", ".cargo/config.toml",
	}
	for _, mode := range guardModes(t) {
		t.Run(mode, func(t *testing.T) {
			fakeHome(t)
			reg, root := registryWithJobs(t, mode, "main.go")
			writeAll(t, root, existing...)
			os.MkdirAll(filepath.Join(root, "mise"), 0o755)
			for _, f := range append(existing, created...) {
				js := `const fs = require('fs'), path = require('path'), f = process.argv[1];
					try { fs.mkdirSync(path.dirname(f), {recursive: true}) } catch {}
					fs.appendFileSync(f, 'yarnPath: evil.js\n'); setTimeout(() => {}, 200);`
				out, e := call[stoppedOut](t, reg, "exec_shell", `{"command": "node", "args": ["-e", `+jsonString(js)+`, `+jsonString(f)+`], "backup": false}`)
				if e != nil {
					t.Fatalf("%s: exec_shell: %v", f, e)
				}
				b, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
				if strings.Contains(string(b), "evil") {
					t.Errorf("%s: the command changed it: %q", f, b)
				}
				if out.ExitCode == 0 && out.StoppedBecause == "" && len(out.GitRestored) == 0 {
					t.Errorf("%s: the change was neither refused nor reported: %+v", f, out)
				}
			}
		})
	}
}

// writeAll makes each root-relative file, and its folders, under root.
func writeAll(t *testing.T, root string, files ...string) {
	t.Helper()
	for _, f := range files {
		full := filepath.Join(root, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// BenchmarkNestedEditor times the guard's walk, which finds the tool files and dependency folders by name too,
// per command, in a work tree of 50 packages of 10 folders of 5 files each (2,500 files) with a node_modules of
// 200 packages.
func BenchmarkNestedEditor(b *testing.B) {
	root := b.TempDir()
	for p := range 50 {
		for d := range 10 {
			dir := filepath.Join(root, "packages", "p"+strconv.Itoa(p), "src", "d"+strconv.Itoa(d))
			os.MkdirAll(dir, 0o755)
			for f := range 5 {
				os.WriteFile(filepath.Join(dir, "f"+strconv.Itoa(f)+".ts"), nil, 0o644)
			}
		}
	}
	for p := range 200 {
		os.MkdirAll(filepath.Join(root, "node_modules", "pkg"+strconv.Itoa(p), "lib"), 0o755)
	}
	os.MkdirAll(filepath.Join(root, "packages", "p1", ".vscode"), 0o755)
	r, err := os.OpenRoot(root)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	guard := gitguard.New().WithToolNames(isToolName)
	for b.Loop() {
		if got := guard.Scan(r, root); len(got.Tools()) != 1 || len(got.Deps()) != 1 {
			b.Fatal(got.Tools(), got.Deps())
		}
	}
}
