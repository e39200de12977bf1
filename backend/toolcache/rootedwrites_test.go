//go:build unix

package toolcache

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Rooted writes into folders commands may write (the project's cargo registry and npm cache) before every command.
// A command can leave links there: to a file Rooted would then overwrite (~/.bashrc), or to a folder it would then
// fill. Every such write goes through an os.Root of the folder, so nothing outside it changes, whichever link a
// command planted; Rooted's own record of what it mirrored lies outside it.
func TestRootedFollowsNoPlantedLink(t *testing.T) {
	base := t.TempDir()
	victims := filepath.Join(base, "home")
	bashrc := filepath.Join(victims, ".bashrc")
	victimDir := filepath.Join(victims, "autostart")
	os.MkdirAll(victimDir, 0o755)
	os.WriteFile(bashrc, []byte("# the user's\n"), 0o644)

	// The user's cargo registry, with a sparse index, a crate and its sources.
	cargo := filepath.Join(base, "cargo")
	for _, f := range []string{"registry/index/reg-x/config.json", "registry/index/reg-x/3/l/lib", "registry/cache/reg-x/lib-1.0.0.crate", "registry/src/reg-x/lib-1.0.0/src/lib.rs"} {
		p := filepath.Join(cargo, filepath.FromSlash(f))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("x"), 0o644)
	}
	t.Setenv("CARGO_HOME", cargo)
	toolcache := filepath.Join(base, "toolcache")
	own := CargoRegistryDir(toolcache)
	os.MkdirAll(own, 0o700)
	// What a command leaves: its registry's folders and Rooted's old stamp as links out.
	os.Symlink(bashrc, filepath.Join(own, ".rooted-mirrored"))
	os.Symlink(victimDir, filepath.Join(own, "index"))
	os.MkdirAll(filepath.Join(own, "cache"), 0o700)
	os.Symlink(victimDir, filepath.Join(own, "cache", "reg-x"))
	os.MkdirAll(filepath.Join(own, "src", "reg-x"), 0o700)
	os.Symlink(bashrc, filepath.Join(own, "src", "reg-x", "lib-1.0.0"))
	if env := CargoHome(t.TempDir(), toolcache, os.Getenv); len(env) == 0 {
		t.Fatal("no cargo home")
	}

	// npm's project cache, its content folder a link out.
	npm := filepath.Join(toolcache, "npm")
	os.MkdirAll(npm, 0o700)
	os.Symlink(victimDir, filepath.Join(npm, "_cacache"))
	userNpm := filepath.Join(base, "user-npm")
	integrity := "sha512-" + strings.Repeat("A", 86) + "=="
	for _, rel := range contentPaths(integrity) {
		p := filepath.Join(userNpm, "_cacache", filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("tarball"), 0o644)
	}
	t.Setenv("npm_config_cache", userNpm)
	project := t.TempDir()
	os.WriteFile(filepath.Join(project, "package-lock.json"), []byte(`{"packages": {"node_modules/x": {"integrity": "`+integrity+`"}}}`), 0o644)
	r, err := os.OpenRoot(project)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if n := SeedNpmCache(toolcache, r, os.Getenv); n != 0 {
		t.Errorf("seeded %d packages through a link out of the cache", n)
	}

	if b, _ := os.ReadFile(bashrc); string(b) != "# the user's\n" {
		t.Errorf("~/.bashrc was overwritten: %q", b)
	}
	if fi, err := os.Lstat(bashrc); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("~/.bashrc is no longer the user's file: %v", err)
	}
	if entries, _ := os.ReadDir(victimDir); len(entries) != 0 {
		t.Errorf("a folder outside got entries through a planted link: %v", entries)
	}
	// With the links gone, the mirror and the seed work.
	os.Remove(filepath.Join(own, "index"))
	os.Remove(filepath.Join(own, ".rooted-mirrored"))
	os.Remove(own + ".rooted-mirrored")
	os.Remove(filepath.Join(npm, "_cacache"))
	CargoHome(t.TempDir(), toolcache, os.Getenv)
	if _, err := os.Stat(filepath.Join(own, "index", "reg-x", "3", "l", "lib")); err != nil {
		t.Errorf("the index was not mirrored: %v", err)
	}
	if n := SeedNpmCache(toolcache, r, os.Getenv); n != 1 {
		t.Errorf("seeded %d packages, want 1", n)
	}
}

// A project's private caches follow its folder, not its path: the same folder keeps its caches, a folder made anew
// at the same path (the project deleted and cloned again) gets new ones.
func TestToolCacheDirFollowsTheFolder(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	root := filepath.Join(t.TempDir(), "project")
	os.Mkdir(root, 0o755)
	first := ToolCacheDir(root)
	if again := ToolCacheDir(root); again != first {
		t.Errorf("the same folder: %s, then %s", first, again)
	}
	os.RemoveAll(root)
	os.Mkdir(root, 0o755)
	if recloned := ToolCacheDir(root); recloned == first {
		t.Errorf("a folder made anew at %s inherits the old one's caches: %s", root, first)
	}
	if !strings.HasPrefix(first, filepath.Join(os.Getenv("XDG_CACHE_HOME"), "rooted", "toolcache")+string(filepath.Separator)) {
		t.Errorf("caches at %s", first)
	}
}

// The cache keys a lockfile names are the ones npm looks up: each package's tarball URL (resolved, or the registry's
// usual URL when npm left it out) and its packument's, a scoped name escaped as npm escapes it.
func TestLockRefs(t *testing.T) {
	t.Parallel()
	var doc any
	if err := json.Unmarshal([]byte(`{"lockfileVersion": 3, "packages": {
		"": {"name": "p"},
		"node_modules/left-pad": {"version": "1.3.0", "resolved": "https://r.example/left-pad/-/left-pad-1.3.0.tgz", "integrity": "sha512-AAAA"},
		"node_modules/@types/node": {"version": "20.1.0", "integrity": "sha512-BBBB"},
		"node_modules/a/node_modules/b": {"version": "2.0.0", "integrity": "sha1-CCCC"}}}`), &doc); err != nil {
		t.Fatal(err)
	}
	l := lockRefs{registry: "https://registry.npmjs.org"}
	l.walk(doc, "")
	const k = "make-fetch-happen:request-cache:"
	for _, want := range []string{
		k + "https://r.example/left-pad/-/left-pad-1.3.0.tgz", k + "https://r.example/left-pad",
		k + "https://registry.npmjs.org/@types/node/-/node-20.1.0.tgz", k + "https://registry.npmjs.org/@types%2fnode",
		k + "https://registry.npmjs.org/b/-/b-2.0.0.tgz", k + "https://registry.npmjs.org/b",
	} {
		if !slices.Contains(l.keys, want) {
			t.Errorf("missing %s in %q", want, l.keys)
		}
	}
	if len(l.integrities) != 3 {
		t.Errorf("integrities %q", l.integrities)
	}
}
