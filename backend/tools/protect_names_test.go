package tools

import (
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/toolcache"
)

// outside runs a program as the user does in a terminal, outside any sandbox, and returns what it printed.
func outside(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	b, _ := cmd.CombinedOutput()
	return string(b)
}

// markerJS is a line of JavaScript that records, in marker, that it ran.
func markerJS(marker string) string {
	return `require("fs").appendFileSync(` + jsonString(marker) + `, "ran\n");`
}

// ranOutside fails the test if the payload writing marker ran.
func ranOutside(t *testing.T, marker, what string) {
	t.Helper()
	if b, err := os.ReadFile(marker); err == nil {
		t.Errorf("%s ran the command's payload outside the sandbox (%q)", what, b)
	}
}

// A workspace's dependencies are hoisted to the root's node_modules; a command makes web/node_modules, which
// node's resolution and npm's PATH put before the hoisted one. Dependency folders are a rule by name, not a list
// of those found before: the new folder is removed after the command (the command is no install) and reported,
// and the user's npm test and require in web run the hoisted code.
func TestNewDependencyFolderDoesNotShadowTheHoistedOne(t *testing.T) {
	for _, mode := range guardModes(t) {
		t.Run(mode, func(t *testing.T) {
			fakeHome(t)
			reg, root := registryWithJobs(t, mode, "package.json")
			marker := filepath.Join(t.TempDir(), "RAN")
			os.WriteFile(filepath.Join(root, "package.json"), []byte(`{"name":"root","private":true,"workspaces":["web"]}`), 0o644)
			writeAll(t, root, "node_modules/foo/package.json", "web/package.json", "node_modules/.bin/foo")
			os.WriteFile(filepath.Join(root, "node_modules/foo/package.json"), []byte(`{"name":"foo","version":"1.0.0"}`), 0o644)
			os.WriteFile(filepath.Join(root, "node_modules/foo/index.js"), []byte(`module.exports = "hoisted"`), 0o644)
			os.WriteFile(filepath.Join(root, "node_modules/.bin/foo"), []byte("#!/bin/sh\necho hoisted foo\n"), 0o755)
			os.Chmod(filepath.Join(root, "node_modules/.bin/foo"), 0o755)
			os.WriteFile(filepath.Join(root, "web/package.json"), []byte(`{"name":"web","version":"1.0.0","scripts":{"test":"foo && node -e \"console.log(require('foo'))\""}}`), 0o644)
			os.WriteFile(filepath.Join(root, ".gitignore"), []byte("node_modules/\n"), 0o644)
			initAndCommit(t, root)

			js := `const fs = require("fs");
				fs.mkdirSync("web/node_modules/.bin", {recursive: true}); fs.mkdirSync("web/node_modules/foo");
				fs.writeFileSync("web/node_modules/.bin/foo", "#!/bin/sh\nnode -e '` + strings.ReplaceAll(markerJS(marker), `"`, `\"`) + `'\n", {mode: 0o755});
				fs.writeFileSync("web/node_modules/foo/index.js", ` + jsonString(markerJS(marker)) + `);`
			out, e := call[protectedOut](t, reg, "exec_shell", `{"command": "node", "args": ["-e", `+jsonString(js)+`], "backup": false}`)
			if e != nil {
				t.Fatal(e)
			}
			if _, err := os.Lstat(filepath.Join(root, "web", "node_modules")); err == nil {
				t.Error("web/node_modules, made by a command that is no install, is still there")
			}
			if !slices.Contains(out.DependenciesChanged, "web/node_modules") || !slices.ContainsFunc(out.GitRestored, func(s string) bool { return strings.Contains(s, "web/node_modules") }) {
				t.Errorf("the new dependency folder was not reported: %q, %q", out.DependenciesChanged, out.GitRestored)
			}
			web := filepath.Join(root, "web")
			if got := outside(t, web, "node", "-e", "console.log(require('foo'))"); !strings.Contains(got, "hoisted") {
				t.Errorf("require('foo') in web: %q", got)
			}
			if _, err := exec.LookPath("npm"); err == nil {
				if got := outside(t, web, "npm", "test"); !strings.Contains(got, "hoisted foo") {
					t.Errorf("npm test in web: %q", got)
				}
			}
			ranOutside(t, marker, "the user's require and npm test in web")
		})
	}
}

// A command plants compiled Python in __pycache__ (ignored by git) with the header of the real module's source,
// so that the user's own python3 would load it instead of the source. Commands get a private PYTHONPYCACHEPREFIX
// (their Python writes nothing in the project), an existing __pycache__ is read-only to them (or, without a mount
// namespace, removed once changed), and a new one is removed after the command.
func TestPlantedBytecodeNeverRunsOutside(t *testing.T) {
	plant := `import os, sys, importlib.util, marshal, struct
src = open('mod.py').read(); st = os.stat('mod.py')
code = compile(src + '\nimport pathlib; pathlib.Path(MARKER).write_text("ran")\n', os.path.abspath('mod.py'), 'exec')
os.makedirs('__pycache__', exist_ok=True)
data = importlib.util.MAGIC_NUMBER + struct.pack('<III', 0, int(st.st_mtime) & 0xFFFFFFFF, st.st_size & 0xFFFFFFFF) + marshal.dumps(code)
open('__pycache__/mod.%s.pyc' % sys.implementation.cache_tag, 'wb').write(data)
`
	for _, mode := range guardModes(t) {
		for _, existing := range []bool{false, true} {
			t.Run(mode+map[bool]string{false: "/new __pycache__", true: "/existing __pycache__"}[existing], func(t *testing.T) {
				fakeHome(t)
				reg, root := registryWithJobs(t, mode, "app.py")
				marker := filepath.Join(t.TempDir(), "RAN")
				os.WriteFile(filepath.Join(root, "app.py"), []byte("import mod\nprint('app ok', mod.f())\n"), 0o644)
				os.WriteFile(filepath.Join(root, "mod.py"), []byte("def f():\n    return 42\n"), 0o644)
				os.WriteFile(filepath.Join(root, "plant.py"), []byte(strings.ReplaceAll(plant, "MARKER", jsonString(marker))), 0o644)
				os.WriteFile(filepath.Join(root, ".gitignore"), []byte("__pycache__/\n"), 0o644)
				if existing {
					if got := outside(t, root, "python3", "app.py"); !strings.Contains(got, "app ok 42") {
						t.Fatalf("python3 app.py: %q", got)
					}
				} else {
					// The command's own Python leaves no compiled files in the project.
					out, e := call[protectedOut](t, reg, "exec_shell", `{"command": "python3 app.py", "backup": false}`)
					if e != nil || !strings.Contains(out.Stdout, "app ok 42") {
						t.Fatalf("python3 app.py in the sandbox: %+v %v", out, e)
					}
					if _, err := os.Lstat(filepath.Join(root, "__pycache__")); err == nil {
						t.Error("the command's python3 wrote __pycache__ in the project")
					}
				}
				out, e := call[protectedOut](t, reg, "exec_shell", `{"command": "python3 plant.py", "backup": false}`)
				if e != nil {
					t.Fatal(e)
				}
				refused := out.ExitCode != 0 && strings.Contains(out.Stderr, "Read-only file system")
				reported := slices.ContainsFunc(out.GitRestored, func(s string) bool { return strings.Contains(s, "__pycache__") })
				if !refused && !reported {
					t.Errorf("the planted bytecode was neither refused nor removed and reported: %+v", out)
				}
				if got := outside(t, root, "python3", "app.py"); !strings.Contains(got, "app ok 42") {
					t.Errorf("the user's python3 app.py: %q", got)
				}
				ranOutside(t, marker, "the user's python3 app.py")
			})
		}
	}
}

// Tool files are protected by name at any depth: a command cannot leave one it created behind, in any folder,
// ignored by git or not (a package's .npmrc whose node-options npm test runs, a nested .vscode, a
// *.code-workspace, the project files of coding agents that start hooks and MCP servers, an ignored go.work whose
// replace directives go run obeys). Existing ones cannot be changed.
func TestToolFilesCreatedAnywhereAreRemoved(t *testing.T) {
	created := []string{
		"pkg/.npmrc", "pkg/.vscode/tasks.json", "proj.code-workspace", "pkg/.envrc", "pkg/mise.toml",
		".claude/settings.local.json", ".mcp.json", ".cursor/mcp.json", ".gemini/settings.json", ".codex/config.toml",
		"opencode.json", ".crush.json", ".qwen/settings.json", ".continue/config.json", "pkg/.claude/settings.json",
		"pkg/.mcp.json", "go.work", "app/go.work",
	}
	existing := []string{".claude/settings.json", "pkg/.cursor/mcp.json", ".gemini/settings.json"}
	for _, mode := range guardModes(t) {
		t.Run(mode, func(t *testing.T) {
			fakeHome(t)
			reg, root := registryWithJobs(t, mode, "main.go")
			writeAll(t, root, "pkg/package.json", "app/go.mod")
			os.WriteFile(filepath.Join(root, ".gitignore"), []byte(".vscode/\n*.code-workspace\n.claude/settings.local.json\ngo.work\n.envrc\n"), 0o644)
			for _, f := range created {
				if slices.Contains(existing, f) {
					continue
				}
				js := `const fs = require('fs'), path = require('path'), f = process.argv[1];
					fs.mkdirSync(path.dirname(f), {recursive: true}); fs.writeFileSync(f, 'planted\n'); setTimeout(() => {}, 100);`
				out, e := call[stoppedOut](t, reg, "exec_shell", `{"command": "node", "args": ["-e", `+jsonString(js)+`, `+jsonString(f)+`], "backup": false}`)
				if e != nil {
					t.Fatalf("%s: %v", f, e)
				}
				if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(f))); err == nil {
					t.Errorf("%s: the command created it and it is still there", f)
				}
				if out.StoppedBecause == "" && !reportsTool(out.GitRestored, f) {
					t.Errorf("%s: not reported: %+v", f, out)
				}
			}
			writeAll(t, root, existing...)
			for _, f := range existing {
				js := `require('fs').appendFileSync(process.argv[1], '{"hooks": "evil"}')`
				out, e := call[stoppedOut](t, reg, "exec_shell", `{"command": "node", "args": ["-e", `+jsonString(js)+`, `+jsonString(f)+`], "backup": false}`)
				if e != nil {
					t.Fatalf("%s: %v", f, e)
				}
				if b, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(f))); strings.Contains(string(b), "evil") {
					t.Errorf("%s: the command changed it", f)
				}
				if out.ExitCode == 0 && out.StoppedBecause == "" && len(out.GitRestored) == 0 {
					t.Errorf("%s: the change was neither refused nor reported: %+v", f, out)
				}
			}
		})
	}
}

// End to end with the user's own tools: a package's .npmrc whose node-options npm test obeys, and an ignored
// go.work whose replace directive go run obeys over go.mod's, both planted by one command.
func TestPlantedNpmrcAndGoWorkNeverRunOutside(t *testing.T) {
	for _, mode := range guardModes(t) {
		t.Run(mode, func(t *testing.T) {
			fakeHome(t)
			reg, root := registryWithJobs(t, mode, "main.go")
			marker := filepath.Join(t.TempDir(), "RAN")
			os.WriteFile(filepath.Join(root, ".gitignore"), []byte("go.work\ngo.work.sum\n.cache/\n"), 0o644)
			writeAll(t, root, "pkg/package.json", "lib/go.mod", "lib/lib.go")
			os.WriteFile(filepath.Join(root, "pkg/package.json"), []byte(`{"name":"pkg","version":"1.0.0","scripts":{"test":"node -e 0"}}`), 0o644)
			os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/app\n\ngo 1.22\n\nrequire example.com/lib v0.0.0\n\nreplace example.com/lib => ./lib\n"), 0o644)
			os.WriteFile(filepath.Join(root, "lib/go.mod"), []byte("module example.com/lib\n\ngo 1.22\n"), 0o644)
			os.WriteFile(filepath.Join(root, "lib/lib.go"), []byte("package lib\n\nfunc F() string { return \"lib ok\" }\n"), 0o644)
			os.WriteFile(filepath.Join(root, "main.go"), []byte("package main\n\nimport (\n\t\"fmt\"\n\n\t\"example.com/lib\"\n)\n\nfunc main() { fmt.Println(lib.F()) }\n"), 0o644)
			evilLib := "package lib\n\nimport \"os\"\n\nfunc F() string { os.WriteFile(" + jsonString(marker) + ", []byte(\"ran\"), 0o644); return \"lib ok\" }\n"
			js := `const fs = require("fs");
				fs.writeFileSync("pkg/.npmrc", "node-options=--require=" + process.cwd() + "/.cache/p.js\n");
				fs.mkdirSync(".cache/lib", {recursive: true});
				fs.writeFileSync(".cache/p.js", ` + jsonString(markerJS(marker)) + `);
				fs.writeFileSync(".cache/lib/go.mod", "module example.com/lib\n\ngo 1.22\n");
				fs.writeFileSync(".cache/lib/lib.go", ` + jsonString(evilLib) + `);
				fs.writeFileSync("go.work", "go 1.22\n\nuse .\n\nreplace example.com/lib => ./.cache/lib\n");`
			out, e := call[protectedOut](t, reg, "exec_shell", `{"command": "node", "args": ["-e", `+jsonString(js)+`], "backup": false}`)
			if e != nil {
				t.Fatal(e)
			}
			t.Logf("result: exit %d, put back %q", out.ExitCode, out.GitRestored)
			if _, err := exec.LookPath("npm"); err == nil {
				outside(t, filepath.Join(root, "pkg"), "npm", "test")
				ranOutside(t, marker, "the user's npm test in pkg")
			}
			if got := outside(t, root, "go", "run", "."); !strings.Contains(got, "lib ok") {
				t.Errorf("the user's go run: %q", got)
			}
			ranOutside(t, marker, "the user's go run")
		})
	}
}

// direnv's approval covers the .envrc's bytes only: the files it loads (dotenv_if_exists, source_env_if_exists)
// set the user's shell environment (PATH first to a project folder) on the next prompt. They are protected as the
// .envrc is, existing or not.
func TestFilesAnEnvrcLoadsAreProtected(t *testing.T) {
	for _, mode := range guardModes(t) {
		t.Run(mode, func(t *testing.T) {
			fakeHome(t)
			reg, root := registryWithJobs(t, mode, "main.go")
			os.WriteFile(filepath.Join(root, ".envrc"), []byte("dotenv_if_exists\nsource_env_if_exists .envrc.local\ndotenv \"config/$STAGE.env\"\n"), 0o644)
			writeAll(t, root, ".env", "config/.env.prod", "config/staging.env")
			for _, f := range []string{".env", ".envrc.local", "config/.env.prod", "config/staging.env"} {
				js := `require('fs').appendFileSync(process.argv[1], 'PATH=/planted/bin\n'); setTimeout(() => {}, 100)`
				out, e := call[stoppedOut](t, reg, "exec_shell", `{"command": "node", "args": ["-e", `+jsonString(js)+`, `+jsonString(f)+`], "backup": false}`)
				if e != nil {
					t.Fatalf("%s: %v", f, e)
				}
				if b, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(f))); strings.Contains(string(b), "planted") {
					t.Errorf("%s: the command changed it: %q", f, b)
				}
				if out.ExitCode == 0 && out.StoppedBecause == "" && len(out.GitRestored) == 0 {
					t.Errorf("%s: neither refused nor reported: %+v", f, out)
				}
			}
		})
	}
}

// bun, pnpm and yarn put packages into node_modules by hard link from the project's package cache: the same
// file by another path. node_modules is read-only to a command that is no install, and so is that cache (in
// every process mode: Landlock grants it no write), so the file cannot be changed through the cache's path, and
// the user's npm test runs the package as installed.
func TestLinkedPackageCacheIsReadOnlyToCommands(t *testing.T) {
	for _, mode := range guardModes(t) {
		t.Run(mode, func(t *testing.T) {
			fakeHome(t)
			t.Setenv("XDG_CACHE_HOME", filepath.Join(t.TempDir(), "cache"))
			reg, root := registryWithJobs(t, mode, "t.js")
			marker := filepath.Join(t.TempDir(), "RAN")
			os.WriteFile(filepath.Join(root, "t.js"), []byte(`console.log(require("foo"))`), 0o644)
			if _, e := call[protectedOut](t, reg, "exec_shell", `{"command": "ls", "backup": false}`); e != nil {
				t.Fatal(e) // the project's caches are made on its first command
			}
			cache := filepath.Join(toolcache.ToolCacheDir(root), "bun-cache", "foo@1.0.0")
			os.MkdirAll(cache, 0o755)
			os.WriteFile(filepath.Join(cache, "index.js"), []byte(`module.exports = "installed"`), 0o644)
			os.MkdirAll(filepath.Join(root, "node_modules", "foo"), 0o755)
			if err := os.Link(filepath.Join(cache, "index.js"), filepath.Join(root, "node_modules", "foo", "index.js")); err != nil {
				t.Fatal(err)
			}
			js := `require("fs").writeFileSync(process.argv[1], ` + jsonString(markerJS(marker)+` module.exports = "installed"`) + `)`
			out, e := call[protectedOut](t, reg, "exec_shell", `{"command": "node", "args": ["-e", `+jsonString(js)+`, `+jsonString(filepath.Join(cache, "index.js"))+`], "backup": false}`)
			if e != nil {
				t.Fatal(e)
			}
			if out.ExitCode == 0 {
				t.Errorf("the command wrote the package cache: %+v", out)
			}
			if got := outside(t, root, "node", "t.js"); !strings.Contains(got, "installed") {
				t.Errorf("the user's node t.js: %q", got)
			}
			ranOutside(t, marker, "the user's node t.js")
		})
	}
}

// The caches hard-linked into node_modules are writable to installs and to the runners that fetch a package to
// run it, and to nothing else.
func TestWritesLinkedCaches(t *testing.T) {
	for argv, want := range map[string]bool{
		"bun install": true, "pnpm add x": true, "yarn": true, "bunx cowsay": true, "bun x cowsay": true,
		"pnpm dlx cowsay": true, "yarn dlx cowsay": true, "bun run test": false, "pnpm test": false, "node t.js": false,
		"pnpm exec foo": false, "yarn run build": false, "tox": true, "virtualenv env": true,
	} {
		if got := writesLinkedCaches(strings.Fields(argv)); got != want {
			t.Errorf("%s: %v, want %v", argv, got, want)
		}
	}
}

// reportsTool reports whether said names f, or the tool folder f is in.
func reportsTool(said []string, f string) bool {
	for p := f; p != "."; p = path.Dir(p) {
		if isToolName(path.Base(p)) && slices.ContainsFunc(said, func(s string) bool { return strings.Contains(s, p) }) {
			return true
		}
	}
	return false
}

// cargo run and cargo test run a binary in target/ without rebuilding it when its sources did not change, and
// npm start runs dist/ as it is: a command that replaces one (its modification time kept) is reported file by
// file, in the result and its text; a command that changes none reports nothing.
func TestChangedBuildOutputsAreReported(t *testing.T) {
	for _, mode := range guardModes(t) {
		t.Run(mode, func(t *testing.T) {
			fakeHome(t)
			reg, root := registryWithJobs(t, mode, "main.go")
			writeAll(t, root, "target/debug/app", "target/debug/deps/app-1a2b3c", "target/debug/deps/app-1a2b3c.d", "target/debug/incremental/x/y", "web/dist/index.js", "README.md")
			os.Chmod(filepath.Join(root, "target/debug/app"), 0o755)
			os.Chmod(filepath.Join(root, "target/debug/deps/app-1a2b3c"), 0o755)
			out, e := call[struct {
				protectedOut
				OutputsChanged []string `json:"outputs_changed"`
			}](t, reg, "exec_shell", `{"command": "ls", "backup": false}`)
			if e != nil || len(out.OutputsChanged) != 0 {
				t.Fatalf("ls: %v %q", e, out.OutputsChanged)
			}
			js := `const fs = require("fs");
				for (const f of ["target/debug/app", "target/debug/deps/app-1a2b3c", "web/dist/index.js", "target/debug/deps/app-1a2b3c.d", "README.md"]) {
					const st = fs.statSync(f); fs.writeFileSync(f, "#!/bin/sh\necho payload\n"); fs.utimesSync(f, st.atime, st.mtime);
				}`
			out, e = call[struct {
				protectedOut
				OutputsChanged []string `json:"outputs_changed"`
			}](t, reg, "exec_shell", `{"command": "node", "args": ["-e", `+jsonString(js)+`], "backup": false}`)
			if e != nil {
				t.Fatal(e)
			}
			if want := []string{"target/debug/app", "target/debug/deps/app-1a2b3c", "web/dist/index.js"}; !slices.Equal(out.OutputsChanged, want) {
				t.Errorf("outputs_changed %q, want %q", out.OutputsChanged, want)
			}
		})
	}
}

// A tool file or dependency folder a command creates in a subfolder ends the command as soon as it appears (the
// watcher watches every work-tree folder for them), not only after it: a command that plants one and goes on
// (sleeps, then would remove it before it ends) does not get to go on. A command that makes ordinary folders
// (mkdir -p, a build's output) runs to its end.
func TestCreatingAToolFileEndsTheCommand(t *testing.T) {
	for _, mode := range guardModes(t) {
		t.Run(mode, func(t *testing.T) {
			fakeHome(t)
			reg, root := registryWithJobs(t, mode, "main.go")
			writeAll(t, root, "pkg/package.json")
			for _, f := range []string{"pkg/.vscode/tasks.json", "pkg/a/b/.claude/settings.json", "web/node_modules/foo/index.js", "pkg/x.code-workspace", "", "src/deep/er/file.go"} {
				os.Remove(filepath.Join(root, "done"))
				js := `const fs = require('fs'), path = require('path'), f = process.argv[1];
					if (f) { fs.mkdirSync(path.dirname(f), {recursive: true}); fs.writeFileSync(f, 'planted\n'); }
					setTimeout(() => fs.writeFileSync('done', 'went on'), 1500);`
				out, e := call[stoppedOut](t, reg, "exec_shell", `{"command": "node", "args": ["-e", `+jsonString(js)+`, `+jsonString(f)+`], "backup": false}`)
				if e != nil {
					t.Fatalf("%s: %v", f, e)
				}
				_, err := os.Lstat(filepath.Join(root, "done"))
				if f == "" || strings.HasPrefix(f, "src/") {
					if err != nil || out.StoppedBecause != "" {
						t.Errorf("%q: an ordinary command was ended: %+v", f, out)
					}
					continue
				}
				if err == nil || out.StoppedBecause == "" {
					t.Errorf("%s: the command went on after creating it: %+v", f, out)
				}
				if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(f))); err == nil {
					t.Errorf("%s: still there", f)
				}
			}
		})
	}
}
