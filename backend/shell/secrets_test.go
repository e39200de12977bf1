//go:build linux

package shell_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/cmdenv"
	"github.com/rooted-dev/rooted/backend/gitconfig"
	"github.com/rooted-dev/rooted/backend/sandbox"
	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/shell"
	"github.com/rooted-dev/rooted/backend/toolcache"
)

// home is a user's home directory with the secrets an attacker wants, and a project in it.
type home struct {
	dir, project, tmp string
	secrets           map[string]string // path -> the marker its content holds
	env               []string
	policy            sandbox.Policy
	info              sandbox.Info
}

// newHome plants secrets where real tools keep them and builds the policy exactly as exec_shell does (the
// project's settings with their defaults), with the toolchains of this machine named by the environment.
func newHome(t *testing.T) home {
	t.Helper()
	base := t.TempDir()
	h := home{dir: filepath.Join(base, "home"), tmp: filepath.Join(base, "tmp"), secrets: map[string]string{}}
	h.project = filepath.Join(h.dir, "src", "project")
	for _, rel := range []string{
		".ssh/id_rsa", ".aws/credentials", ".config/rooted/providers.json", ".netrc", ".docker/config.json",
		".gnupg/private-keys-v1.d/key.key", ".npmrc", ".git-credentials", ".cargo/credentials.toml",
		".config/gh/hosts.yml", ".mozilla/firefox/x.default/logins.json", "src/other-project/.env",
	} {
		p := filepath.Join(h.dir, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o700)
		marker := "TOPSECRET-" + strings.NewReplacer("/", "-", ".", "").Replace(rel)
		if err := os.WriteFile(p, []byte(marker+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		h.secrets[p] = marker
	}
	// Every row of the credentials table, as a file holding its marker (where a folder of the list above is not
	// already planted there), beside the toolchain folders that make their parents readable.
	for _, rel := range cmdenv.Credentials {
		p := filepath.Join(h.dir, filepath.FromSlash(rel))
		if _, err := os.Stat(p); err == nil {
			continue
		}
		os.MkdirAll(filepath.Dir(p), 0o700)
		marker := "TOPSECRET-" + strings.NewReplacer("/", "-", ".", "").Replace(rel)
		content := marker + "\n"
		switch rel {
		case ".gitconfig":
			content = "[user]\n\tname = Sandboxed\n\temail = s@example.com\n[init]\n\tdefaultBranch = main\n[url \"https://" + marker + "@github.com/\"]\n\tinsteadOf = https://github.com/\n[http]\n\textraHeader = Authorization: Bearer " + marker + "\n"
		case ".cargo/config.toml", ".cargo/config":
			content = "[registry]\ntoken = \"" + marker + "\"\n[registries.x]\ntoken = \"" + marker + "\"\n[build]\njobs = 2\n"
		case ".config/go/env":
			content = "GOPRIVATE=example.com\nGOPROXY=https://user:" + marker + "@proxy.example.com\n"
		}
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		h.secrets[p] = marker
	}
	for _, rel := range []string{".gem/specs/index", ".local/share/uv/python/x", ".config/git/ignore", ".cargo/registry/x", ".m2/repository/x", ".gradle/caches/x"} {
		p := filepath.Join(h.dir, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("not a secret\n"), 0o644)
	}
	// A node installed under a version manager's folder (readable: its programs run) has its global npmrc in its
	// prefix, $(npm prefix -g)/etc/npmrc, where a registry token may be.
	if node, err := exec.LookPath("node"); err == nil {
		prefix := filepath.Join(h.dir, ".nvm", "versions", "node", "v99.0.0")
		os.MkdirAll(filepath.Join(prefix, "bin"), 0o755)
		os.MkdirAll(filepath.Join(prefix, "etc"), 0o755)
		os.Symlink(node, filepath.Join(prefix, "bin", "node"))
		p := filepath.Join(prefix, "etc", "npmrc")
		os.WriteFile(p, []byte("//registry.npmjs.org/:_authToken=TOPSECRET-global-npmrc\n"), 0o644)
		h.secrets[p] = "TOPSECRET-global-npmrc"
		t.Setenv("PATH", filepath.Join(prefix, "bin")+string(filepath.ListSeparator)+os.Getenv("PATH"))
	}
	os.MkdirAll(h.project, 0o755)
	os.MkdirAll(h.tmp, 0o700)
	// The toolchains stay where this machine has them (asked before HOME changes); a user's would be in the home
	// directory's usual places.
	realHome, _ := os.UserHomeDir()
	toolchains := map[string]string{}
	for _, name := range []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GOROOT"} {
		if out, err := exec.Command("go", "env", name).Output(); err == nil {
			toolchains[name] = strings.TrimSpace(string(out))
		}
	}
	for name, rel := range map[string]string{"CARGO_HOME": ".cargo", "RUSTUP_HOME": ".rustup"} {
		if v := os.Getenv(name); v != "" {
			toolchains[name] = v
		} else if p := filepath.Join(realHome, rel); exists(p) {
			toolchains[name] = p
		}
	}
	t.Setenv("HOME", h.dir)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(h.dir, ".config"))
	for name, v := range toolchains {
		t.Setenv(name, v)
	}
	t.Setenv("npm_config_cache", filepath.Join(h.tmp, "npm-cache"))
	h.policy = settings.Project{}.Policy(h.project, h.tmp)
	goEnv, goDirs := toolcache.GoCaches(filepath.Join(base, "toolcache"), false, os.Getenv)
	h.policy.Writable = append(h.policy.Writable, goDirs...)
	h.info = sandbox.Probe(h.policy)
	if !h.info.Active || h.info.Kind != "landlock" {
		t.Fatalf("no Landlock sandbox on this Linux machine: %+v", h.info)
	}
	npmrc := filepath.Join(h.tmp, ".npmrc")
	os.WriteFile(npmrc, nil, 0o600)
	gitEnv, err := gitconfig.SandboxGlobal(h.tmp, os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	goEnv = append(append(goEnv, gitEnv...), toolcache.CargoHome(h.tmp, filepath.Join(base, "toolcache"), os.Getenv)...)
	goEnv = append(goEnv, toolcache.PackageCaches(filepath.Join(base, "toolcache"), os.Getenv)...)
	h.policy.Writable = append(h.policy.Writable, toolcache.PackageCacheDirs(filepath.Join(base, "toolcache"))...)
	h.env = cmdenv.Env(os.Environ(), nil, append([]string{"TMPDIR=" + h.tmp, "NPM_CONFIG_USERCONFIG=" + npmrc, "PIP_CONFIG_FILE=" + os.DevNull}, goEnv...)...)
	return h
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

func (h home) run(t *testing.T, argv ...string) shell.Result {
	t.Helper()
	res, err := shell.Run(context.Background(), shell.Spec{Argv: argv, Dir: h.project, Env: h.env, Timeout: 90 * time.Second, Policy: h.policy, Sandbox: h.info})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// Every secret location, read by each kind of program an allowlist lets the agent run: none of them prints a
// secret. The path-argument checks of exec_shell are not in the way here: this is the sandbox alone.
func TestSandboxedCommandsCannotReadSecrets(t *testing.T) {
	h := newHome(t)
	var paths []string
	for p := range h.secrets {
		paths = append(paths, p)
	}
	reader := filepath.Join(h.project, "reader")
	os.MkdirAll(reader, 0o755)
	os.WriteFile(filepath.Join(reader, "go.mod"), []byte("module reader\n\ngo 1.22\n"), 0o644)
	os.WriteFile(filepath.Join(reader, "main.go"), []byte("package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\nfunc main() {\n\tfor _, p := range os.Args[1:] {\n\t\tb, err := os.ReadFile(p)\n\t\tfmt.Println(p, string(b), err)\n\t}\n}\n"), 0o644)
	other := filepath.Join(h.dir, "src", "other-project")
	for _, args := range [][]string{{"init", "-q"}, {"add", ".env"}, {"commit", "-qm", "x"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = other, os.Environ()
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	type attack struct {
		name string
		argv []string
	}
	attacks := []attack{
		{"cat", append([]string{"cat"}, paths...)},
		{"go run of a program that reads files", append([]string{"go", "run", "./reader"}, paths...)},
		{"git -C another repository", []string{"git", "-C", other, "show", "HEAD:.env"}},
		{"grep -r with an absolute path", []string{"grep", "-r", "TOPSECRET", h.dir}},
		{"find over the home directory", []string{"find", h.dir, "-name", "*"}},
		{"cp out into the project", append(append([]string{"cp"}, paths...), h.project)},
	}
	for _, p := range paths {
		rel, _ := filepath.Rel(h.dir, p)
		attacks = append(attacks,
			attack{"node " + rel, []string{"node", "-e", "process.stdout.write(require('fs').readFileSync(process.argv[1], 'utf8'))", p}},
			attack{"git diff --no-index " + rel, []string{"git", "diff", "--no-index", "--", p, "reader/go.mod"}})
	}
	// What commands get instead of git's and cargo's configuration holds none of it.
	attacks = append(attacks,
		attack{"git config --global --list", []string{"git", "config", "--global", "--list"}},
		attack{"git config --list --show-origin", []string{"git", "config", "--list", "--show-origin"}},
		attack{"cat the filtered copies", []string{"cat", filepath.Join(h.tmp, "gitconfig"), filepath.Join(h.tmp, "cargo-home", "config.toml")}},
		attack{"find the home folder's readable parts", []string{"find", filepath.Join(h.dir, ".gem"), filepath.Join(h.dir, ".local"), filepath.Join(h.dir, ".cargo"), filepath.Join(h.dir, ".config")}})
	if _, err := exec.LookPath("python3"); err == nil {
		attacks = append(attacks, attack{"python3", []string{"python3", "-c", "import sys\nfor p in sys.argv[1:]:\n  try: print(open(p).read())\n  except Exception as e: print(e)", paths[0], paths[1]}})
	}
	t.Run("attacks", func(t *testing.T) { // returns once every attack ran; the environment stays set until then
		for _, a := range attacks {
			t.Run(a.name, func(t *testing.T) {
				t.Parallel()
				res := h.run(t, a.argv...)
				out := res.Stdout + res.Stderr
				for p, marker := range h.secrets {
					if strings.Contains(out, marker) {
						t.Errorf("%s read %s: %q", a.name, p, out)
					}
					if a.name == "find the home folder's readable parts" && strings.Contains(res.Stdout, p+"\n") {
						t.Errorf("find listed %s", p)
					}
					if a.name == "find over the home directory" && strings.Contains(res.Stdout, filepath.Base(p)) && !strings.HasPrefix(p, h.project) {
						t.Errorf("find listed %s", p)
					}
				}
				// And nothing was copied into the project either.
				entries, _ := os.ReadDir(h.project)
				for _, e := range entries {
					if b, err := os.ReadFile(filepath.Join(h.project, e.Name())); err == nil && strings.Contains(string(b), "TOPSECRET") {
						t.Errorf("%s copied a secret into the project as %s", a.name, e.Name())
					}
				}
			})
		}
	})
	// /etc/shadow is readable by root outside the sandbox; not inside.
	if b, err := os.ReadFile("/etc/shadow"); err == nil && len(b) > 0 {
		if res := h.run(t, "cat", "/etc/shadow"); res.ExitCode == 0 || res.Stdout != "" {
			t.Errorf("cat /etc/shadow inside the sandbox: %+v", res)
		}
	}
}

// The toolchains still work inside the sandbox: go test, npm test, cargo test and git in the project.
func TestToolchainsWorkInTheSandbox(t *testing.T) {
	h := newHome(t)
	write := func(rel, content string) {
		p := filepath.Join(h.project, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/p\n\ngo 1.22\n")
	write("calc.go", "package p\n\nfunc Add(a, b int) int { return a + b }\n")
	write("calc_test.go", "package p\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(2, 3) != 5 {\n\t\tt.Fatal(\"no\")\n\t}\n}\n")
	write("package.json", `{"name": "p", "version": "1.0.0", "scripts": {"test": "node -e \"console.log('npm-test-ok')\""}}`+"\n")
	write("crate/Cargo.toml", "[package]\nname = \"crate\"\nversion = \"0.1.0\"\nedition = \"2021\"\n")
	// cargo reads ~/.cargo/config.toml for every project below the home folder, and stops where it may not; without
	// a token in it (the table's row holds one) it is readable.
	os.WriteFile(filepath.Join(h.dir, ".cargo", "config.toml"), []byte("[build]\njobs = 2\n"), 0o600)
	os.Remove(filepath.Join(h.dir, ".cargo", "config"))
	h.policy.Readable = cmdenv.Readable(h.dir, os.Getenv)
	h.info = sandbox.Probe(h.policy)
	write("crate/src/lib.rs", "pub fn add(a: i32, b: i32) -> i32 { a + b }\n#[cfg(test)]\nmod tests { #[test] fn adds() { assert_eq!(super::add(2, 3), 5); } }\n")
	cases := []struct {
		argv []string
		want string
	}{
		{[]string{"go", "test", "./..."}, "ok"},
		{[]string{"npm", "test"}, "npm-test-ok"},
		{[]string{"git", "init", "-q"}, ""},
		{[]string{"git", "add", "-A"}, ""},
		{[]string{"git", "commit", "-qm", "in the sandbox"}, ""},
		{[]string{"git", "log", "--format=%an %s"}, "Sandboxed in the sandbox"},
	}
	if _, err := exec.LookPath("cargo"); err == nil {
		cases = append(cases, struct {
			argv []string
			want string
		}{[]string{"cargo", "test", "--offline", "--manifest-path", "crate/Cargo.toml"}, "test result: ok"})
	} else {
		t.Log("cargo is not installed here: cargo test not checked")
	}
	for _, c := range cases {
		res := h.run(t, c.argv...)
		if res.ExitCode != 0 || !strings.Contains(res.Stdout+res.Stderr, c.want) {
			t.Errorf("%v in the sandbox: exit %d\nstdout %s\nstderr %s", c.argv, res.ExitCode, res.Stdout, res.Stderr)
		}
	}
}

// Caches that other builds run code from cannot be poisoned: a command cannot change a module's source or a
// build cache entry the user's own builds use, yet builds with dependencies work offline, their modules coming
// from the user's module cache through a verified file:// proxy into the project's private cache.
func TestCommandsCannotPoisonCaches(t *testing.T) {
	h := newHome(t)
	shared, _ := exec.Command("go", "env", "GOMODCACHE").Output()
	userBuild, _ := exec.Command("go", "env", "GOCACHE").Output()
	version, sums := sysModule(t)
	modDir := filepath.Join(strings.TrimSpace(string(shared)), "golang.org", "x", "sys@"+version)
	if _, err := os.Stat(modDir); err != nil {
		t.Fatalf("the test needs golang.org/x/sys %s in the module cache (this repository's dependency): %v", version, err)
	}
	app := filepath.Join(h.project, "app")
	os.MkdirAll(app, 0o755)
	os.WriteFile(filepath.Join(app, "go.mod"), []byte("module app\n\ngo 1.26.0\n\nrequire golang.org/x/sys "+version+"\n"), 0o644)
	os.WriteFile(filepath.Join(app, "go.sum"), []byte(sums), 0o644)
	os.WriteFile(filepath.Join(app, "main.go"), []byte("package main\n\nimport (\n\t\"fmt\"\n\n\t\"golang.org/x/sys/unix\"\n)\n\nfunc main() { fmt.Println(\"pid ok\", unix.Getpid() > 0) }\n"), 0o644)
	build := h.runIn(t, app, "go", "run", ".")
	if build.ExitCode != 0 || !strings.Contains(build.Stdout, "pid ok true") {
		t.Fatalf("an offline build with a dependency: exit %d\n%s%s", build.ExitCode, build.Stdout, build.Stderr)
	}
	for _, a := range []struct{ name, target string }{
		{"a module's source in the user's cache", filepath.Join(modDir, "unix", "zz_poison.go")},
		{"a module's zip in the user's download cache", filepath.Join(strings.TrimSpace(string(shared)), "cache", "download", "golang.org", "x", "sys", "@v", version+".zip")},
		{"the user's build cache", filepath.Join(strings.TrimSpace(string(userBuild)), "00", "zz-poison-a")},
	} {
		res := h.run(t, "node", "-e", "const fs = require('fs'); try { fs.chmodSync(process.argv[1], 0o644) } catch {} fs.appendFileSync(process.argv[1], 'package unix\\n'); console.log('WROTE')", a.target)
		if res.ExitCode == 0 || strings.Contains(res.Stdout, "WROTE") {
			t.Errorf("%s was written: %q %q", a.name, res.Stdout, res.Stderr)
			os.Remove(a.target)
		}
	}
	if _, err := os.Stat(filepath.Join(modDir, "unix", "zz_poison.go")); err == nil {
		t.Error("the poisoned source file exists")
	}
}

// sysModule is the version of golang.org/x/sys this repository requires and its go.sum lines: a module that any
// machine that built the tests holds in its module cache, whatever version the repository has moved to.
func sysModule(t *testing.T) (version, sums string) {
	t.Helper()
	mod, err := os.ReadFile(filepath.Join("..", "..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(mod)) {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "golang.org/x/sys" {
			version = f[1]
		}
	}
	sum, err := os.ReadFile(filepath.Join("..", "..", "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(sum)) {
		if strings.HasPrefix(line, "golang.org/x/sys "+version+" ") || strings.HasPrefix(line, "golang.org/x/sys "+version+"/go.mod ") {
			sums += line
		}
	}
	if version == "" || strings.Count(sums, "\n") != 2 {
		t.Fatalf("golang.org/x/sys not found in go.mod and go.sum: version %q, sums %q", version, sums)
	}
	return version, sums
}

func (h home) runIn(t *testing.T, dir string, argv ...string) shell.Result {
	t.Helper()
	res, err := shell.Run(context.Background(), shell.Spec{Argv: argv, Dir: dir, Env: h.env, Timeout: 120 * time.Second, Policy: h.policy, Sandbox: h.info})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// Nothing the user's own tools run later is writable: a folder on PATH (pnpm's home, first on it), pnpm's store and
// bun's cache (hard-linked into other projects), npx's packages, yarn's cache, cargo's extracted sources and npm's
// cache (its index maps a URL to a hash); npm still works, with a cache of the project's own.
func TestCommandsCannotWriteWhatToolsRunLater(t *testing.T) {
	h := newHome(t)
	pnpmHome := filepath.Join(h.dir, ".local", "share", "pnpm")
	targets := map[string]string{
		"a program in pnpm's home, first on PATH": filepath.Join(pnpmHome, "git"),
		"pnpm's store":              filepath.Join(pnpmHome, "store", "v3", "files", "00", "abc-index.js"),
		"bun's cache":               filepath.Join(h.dir, ".bun", "install", "cache", "left-pad@1.3.0", "index.js"),
		"npx's packages":            filepath.Join(h.dir, ".npm", "_npx", "0123", "node_modules", "x", "index.js"),
		"yarn's cache":              filepath.Join(h.dir, ".cache", "yarn", "v6", "npm-x-1.0.0", "index.js"),
		"cargo's extracted sources": filepath.Join(h.dir, ".cargo", "registry", "src", "index.crates.io-x", "x-1.0.0", "src", "lib.rs"),
		"npm's cache index":         filepath.Join(h.dir, ".npm", "_cacache", "index-v5", "00", "aa", "0123456789"),
		"npm's cache content":       filepath.Join(h.dir, ".npm", "_cacache", "content-v2", "sha512", "00", "aa", "0123456789"),
	}
	for _, p := range targets {
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("// the user's\n"), 0o755)
	}
	shared := filepath.Join(h.dir, ".npm", "_cacache")
	os.MkdirAll(shared, 0o755)
	t.Setenv("PNPM_HOME", pnpmHome)
	t.Setenv("PATH", pnpmHome+string(filepath.ListSeparator)+os.Getenv("PATH"))
	t.Setenv("CARGO_HOME", filepath.Join(h.dir, ".cargo"))
	// The policy as exec_shell builds it, now that these exist.
	h.policy = settings.Project{}.Policy(h.project, h.tmp)
	h.info = sandbox.Probe(h.policy)
	t.Run("targets", func(t *testing.T) { // returns once every target was tried
		for name, p := range targets {
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				for _, js := range []string{
					"require('fs').appendFileSync(process.argv[1], 'PLANTED'); console.log('WROTE')",
					"require('fs').writeFileSync(require('path').join(require('path').dirname(process.argv[1]), 'planted'), 'PLANTED'); console.log('WROTE')",
				} {
					res := h.run(t, "node", "-e", js, p)
					if strings.Contains(res.Stdout, "WROTE") {
						t.Errorf("%s is writable from the sandbox: %s", name, p)
					}
				}
				if b, _ := os.ReadFile(p); strings.Contains(string(b), "PLANTED") {
					t.Errorf("%s was changed", name)
				}
			})
		}
	})
	if res := h.run(t, "node", "-e", "require('fs').mkdirSync(process.argv[1], {recursive: true}); console.log('WROTE')", filepath.Join(shared, "tmp")); strings.Contains(res.Stdout, "WROTE") {
		t.Errorf("the user's npm cache is writable from the sandbox")
	}
	os.WriteFile(filepath.Join(h.project, "package.json"), []byte(`{"name": "p", "version": "1.0.0", "scripts": {"test": "node -e \"console.log('npm-test-ok')\""}}`+"\n"), 0o644)
	if res := h.run(t, "npm", "test"); res.ExitCode != 0 || !strings.Contains(res.Stdout, "npm-test-ok") {
		t.Errorf("npm test: %d %s %s", res.ExitCode, res.Stdout, res.Stderr)
	}
}

// npm's cache cannot be poisoned for the user's own npm: a command that writes an index entry and its content
// (what a poisoned packument and tarball are) writes only the project's own cache, and the user's npm, run
// outside, does not see it; what the project's lockfile names comes from the user's cache by its hash, read-only.
func TestNpmCacheCannotBePoisoned(t *testing.T) {
	h := newHome(t)
	cacache := filepath.Join(npmPackage(t), "node_modules", "cacache")
	userCache := filepath.Join(h.dir, ".npm")
	t.Setenv("npm_config_cache", userCache) // the user's npm, outside
	put := "const c = require(process.argv[1]); c.put(process.argv[2], process.argv[3], process.argv[4]).then(i => console.log('PUT ' + i), e => console.log('FAILED ' + e.code))"
	get := "const c = require(process.argv[1]); c.get(process.argv[2], process.argv[3]).then(r => console.log('GOT ' + r.data), e => console.log('MISSING ' + e.code))"
	// The user's own npm cached a package.
	goodKey := "make-fetch-happen:request-cache:https://registry.npmjs.org/left-pad/-/left-pad-1.3.0.tgz"
	cmd := exec.Command("node", "-e", put, cacache, filepath.Join(userCache, "_cacache"), goodKey, "GOOD-TARBALL")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	integrity, ok := strings.CutPrefix(strings.TrimSpace(string(out)), "PUT ")
	if err != nil || !ok {
		t.Fatalf("caching as the user: %v %s %s", err, out, stderr.String())
	}
	// The policy as exec_shell builds it, now that the user's cache exists (readable, as ~/.npm is).
	cacheDir := filepath.Join(filepath.Dir(h.tmp), "toolcache")
	h.policy = settings.Project{}.Policy(h.project, h.tmp)
	h.policy.Writable = append(h.policy.Writable, toolcache.PackageCacheDirs(cacheDir)...)
	h.info = sandbox.Probe(h.policy)
	// A command poisons every cache it can reach: the user's, named by path, and its own (npm_config_cache).
	evilKey := "make-fetch-happen:request-cache:https://registry.npmjs.org/evil-pkg"
	if res := h.run(t, "node", "-e", put, cacache, filepath.Join(userCache, "_cacache"), evilKey, "PAYLOAD"); !strings.Contains(res.Stdout, "FAILED") {
		t.Errorf("the user's npm cache took an entry from the sandbox: %s %s", res.Stdout, res.Stderr)
	}
	if res := h.run(t, "node", "-e", put, cacache, filepath.Join(userCache, "_cacache"), goodKey, "PAYLOAD"); !strings.Contains(res.Stdout, "FAILED") {
		t.Errorf("the user's entry was replaced from the sandbox: %s", res.Stdout)
	}
	own := h.run(t, "node", "-e", "const c = require(process.argv[1]); c.put(require('path').join(process.env.npm_config_cache, '_cacache'), process.argv[2], 'PAYLOAD').then(() => console.log('PUT'), e => console.log('FAILED ' + e))", cacache, evilKey)
	if !strings.Contains(own.Stdout, "PUT") {
		t.Errorf("the project's own npm cache is not writable: %s %s", own.Stdout, own.Stderr)
	}
	// The user's npm, outside, sees its own entry and nothing the command wrote.
	for key, want := range map[string]string{goodKey: "GOT GOOD-TARBALL", evilKey: "MISSING"} {
		if out, _ := exec.Command("node", "-e", get, cacache, filepath.Join(userCache, "_cacache"), key).Output(); !strings.HasPrefix(string(out), want) {
			t.Errorf("the user's cache, %s: %s, want %s", key, out, want)
		}
	}
	if out, _ := exec.Command("npm", "cache", "ls").CombinedOutput(); strings.Contains(string(out), "evil-pkg") {
		t.Errorf("the user's npm lists the command's entry: %s", out)
	}
	// A project whose lockfile names the user's package finds it in its own cache, by hash, and cannot change it.
	os.WriteFile(filepath.Join(h.project, "package-lock.json"), []byte(`{"lockfileVersion": 3, "packages": {"node_modules/left-pad": {"integrity": "`+integrity+`"}}}`), 0o644)
	project, err := os.OpenRoot(h.project)
	if err != nil {
		t.Fatal(err)
	}
	defer project.Close()
	if n := toolcache.SeedNpmCache(cacheDir, project, os.Getenv); n != 1 {
		t.Errorf("seeded %d packages, want 1", n)
	}
	byDigest := "const c = require(process.argv[1]); c.get.byDigest(require('path').join(process.env.npm_config_cache, '_cacache'), process.argv[2]).then(d => console.log('GOT ' + d), e => console.log('MISSING ' + e.code))"
	if res := h.run(t, "node", "-e", byDigest, cacache, integrity); !strings.Contains(res.Stdout, "GOT GOOD-TARBALL") {
		t.Errorf("the seeded package, read in the sandbox by its hash: %s %s", res.Stdout, res.Stderr)
	}
	overwrite := "const fs = require('fs'), p = require('path'); const walk = d => fs.readdirSync(d, {withFileTypes: true}).flatMap(e => e.isDirectory() ? walk(p.join(d, e.name)) : [p.join(d, e.name)]); for (const f of walk(p.join(process.env.npm_config_cache, '_cacache', 'content-v2'))) { try { fs.writeFileSync(f, 'PAYLOAD'); console.log('WROTE ' + f) } catch (e) {} }"
	h.run(t, "node", "-e", overwrite)
	if out, _ := exec.Command("node", "-e", get, cacache, filepath.Join(userCache, "_cacache"), goodKey).Output(); !strings.HasPrefix(string(out), "GOT GOOD-TARBALL") {
		t.Errorf("the user's cached package changed through the project's link: %s", out)
	}
}

func npmPackage(t *testing.T) string {
	t.Helper()
	// npm's own folder, from the npm on PATH (bin/npm is a link into it): "npm root -g" names the global folder
	// of the node that runs it, which need not be where this npm lives (a node of the project's own first on PATH).
	p, err := exec.LookPath("npm")
	if err != nil {
		t.Skipf("npm is not installed: %v", err)
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Dir(filepath.Dir(real)) // .../npm/bin/npm-cli.js
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "cacache")); err != nil {
		t.Fatalf("npm at %s has no cacache beside it: %v", real, err)
	}
	return dir
}
