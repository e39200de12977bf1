package shell

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"

	"github.com/rooted-dev/rooted/backend/gocache"
)

// ToolchainCaches are the directories build tools write to outside a project (npm, yarn, pnpm, cargo and bun
// caches), those that exist. The sandbox lets commands write there; Go's caches are private instead (GoCaches).
func ToolchainCaches() []string {
	home, _ := os.UserHomeDir()
	cache, _ := os.UserCacheDir()
	var dirs []string
	creds := credentialPaths(home, os.Getenv)
	add := func(paths ...string) {
		for _, p := range paths {
			if p == "" {
				continue
			}
			if fi, err := os.Stat(p); err == nil && fi.IsDir() {
				dirs = append(dirs, withoutCredentials(filepath.Clean(p), creds)...) // pnpm keeps its rc in its home
			}
		}
	}
	add(os.Getenv("npm_config_cache"), os.Getenv("NPM_CONFIG_CACHE"))
	if ch := os.Getenv("CARGO_HOME"); ch != "" {
		add(filepath.Join(ch, "registry"), filepath.Join(ch, "git"))
	}
	if cache != "" {
		add(filepath.Join(cache, "yarn"))
	}
	if home != "" {
		add(filepath.Join(home, ".npm"), filepath.Join(home, ".local", "share", "pnpm"),
			filepath.Join(home, ".cargo", "registry"), filepath.Join(home, ".cargo", "git"),
			filepath.Join(home, ".bun", "install", "cache"))
	}
	return dirs
}

// Go's caches are code other builds run: a build cache entry is used without being checked again, and a module's
// extracted source is verified only when it is downloaded. A command that could write the user's caches could
// change what the user's next build, anywhere, compiles. So sandboxed commands get Go caches of their own, per
// project (GoCaches), and see the user's only to read: modules come from the user's cache through a file://
// proxy, which go verifies against go.sum as it would a download.

// GoCaches returns the environment that points a command's Go at private caches under dir (created as needed),
// and the directories that must be writable for them; network says whether the module proxy may be reached after
// the user's own cache.
func GoCaches(dir string, network bool, getenv func(string) string) (env, writable []string) {
	build, mods := GoCacheDirs(dir)
	for _, d := range []string{build, mods} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, nil
		}
	}
	proxy := "off"
	if network {
		proxy = getenv("GOPROXY")
		if proxy == "" {
			proxy = "https://proxy.golang.org,direct"
		}
	}
	if shared := goModCache(getenv); shared != "" {
		if fi, err := os.Stat(filepath.Join(shared, "cache", "download")); err == nil && fi.IsDir() {
			proxy = "file://" + filepath.ToSlash(filepath.Join(shared, "cache", "download")) + "," + proxy
		}
	}
	flags := []string{}
	for _, f := range strings.Fields(getenv("GOFLAGS")) {
		if f != "-modcacherw" && f != "--modcacherw" {
			flags = append(flags, f)
		}
	}
	env = []string{"GOCACHE=" + build, "GOMODCACHE=" + mods, "GOPROXY=" + proxy, "GOFLAGS=" + strings.Join(flags, " ")}
	// The build cache is this binary as a cache program (package gocache): it reads the user's own build cache,
	// which only the user's builds write, and stores only into the private one, so a project's first build starts
	// warm. The binary is readable in the sandbox (Readable lists it).
	if exe, err := os.Executable(); err == nil {
		env = append(env, "GOCACHEPROG="+gocache.Command(exe, gocache.UserCache(getenv), build))
	}
	if !network {
		env = append(env, "GONOSUMDB=*", "GOSUMDB=off") // go.sum is the check; the checksum database is out of reach
	}
	return env, []string{build, mods}
}

// goModCache is the user's module cache: GOMODCACHE, else GOPATH's (first entry) pkg/mod, else ~/go/pkg/mod.
func goModCache(getenv func(string) string) string {
	if m := getenv("GOMODCACHE"); m != "" {
		return m
	}
	gopath := getenv("GOPATH")
	if gopath == "" {
		home, _ := os.UserHomeDir()
		if home == "" {
			return ""
		}
		gopath = filepath.Join(home, "go")
	}
	return filepath.Join(filepath.SplitList(gopath)[0], "pkg", "mod")
}

// GoCacheDirs are the private Go build and module caches under dir.
func GoCacheDirs(dir string) (build, mods string) {
	return filepath.Join(dir, "go-build"), filepath.Join(dir, "go-mod")
}

// ToolCacheDir is where a project's commands keep their private toolchain caches: the user's cache directory (or
// the temporary one) / rooted/toolcache/<name>-<hash of the root>.
func ToolCacheDir(root string) string {
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	sum := sha256.Sum256([]byte(root))
	return filepath.Join(base, "rooted", "toolcache", filepath.Base(root)+"-"+hex.EncodeToString(sum[:6]))
}
