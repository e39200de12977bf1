package toolcache

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/rooted-dev/rooted/backend/cmdenv"
	"github.com/rooted-dev/rooted/backend/gocache"
)

// Package caches whose contents other projects run without a check again must not be writable from the sandbox:
// pnpm's store and bun's cache are hard-linked into other projects' node_modules, npx runs what ~/.npm/_npx
// holds, yarn runs its unpacked cache, cargo builds the sources its registry extracted, and pnpm's home is first on
// PATH. npm's cache is no exception: its content is checked against its hash, but its index (index-v5) maps a URL
// to a hash, and a command that could write both could make the user's own npx pkg or npm install pkg run its
// payload. A cache may be shared writable only where every key is the content's hash, and npm's is not. So every
// package cache a command writes is the project's own (PackageCaches), beside the user's caches it may read; npm's
// is seeded with the content the project's lockfile names from the user's cache (SeedNpmCache), by hash only.

// userNpmCaches are the npm cache folders the user's npm uses.
func userNpmCaches(home string) []string {
	out := []string{os.Getenv("npm_config_cache"), os.Getenv("NPM_CONFIG_CACHE")}
	if home != "" {
		out = append(out, filepath.Join(home, ".npm"))
	}
	return out
}

// PackageCacheDirs are a project's own package caches under dir (ToolCacheDir): npm's, pnpm's store, bun's and
// yarn's caches, cargo's registry (CargoHome), and Python's compiled files (PYTHONPYCACHEPREFIX).
func PackageCacheDirs(dir string) []string {
	return []string{
		filepath.Join(dir, "npm"), filepath.Join(dir, "pnpm-store"), filepath.Join(dir, "bun-cache"), filepath.Join(dir, "yarn-cache"),
		CargoRegistryDir(dir), filepath.Join(dir, "pycache"),
	}
}

// LinkedPackageCaches are the caches of PackageCacheDirs whose files the package managers put into the project by
// hard link (pnpm's store, bun's cache, yarn's hardlinks modes): a file there is the same file as one in
// node_modules, so whoever may write it may change node_modules whatever binds hold that path. Only install
// commands may write them.
func LinkedPackageCaches(dir string) []string {
	d := PackageCacheDirs(dir)
	return d[1:4]
}

// PackageCaches creates the project's own package caches under dir and returns the environment that points npm,
// npx, pnpm, bun and yarn at them.
func PackageCaches(dir string, getenv func(string) string) []string {
	dirs := PackageCacheDirs(dir)
	for _, d := range dirs {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil
		}
	}
	return []string{
		"npm_config_cache=" + dirs[0], "NPM_CONFIG_CACHE=" + dirs[0], "npm_config_store_dir=" + dirs[1],
		"NPM_CONFIG_STORE_DIR=" + dirs[1], "BUN_INSTALL_CACHE_DIR=" + dirs[2], "YARN_CACHE_FOLDER=" + dirs[3],
		// Python (3.8 and later) then writes no __pycache__ in the project, where the user's own python would
		// load a compiled file whose header matches its source instead of the source.
		"PYTHONPYCACHEPREFIX=" + dirs[5],
	}
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
		} else if proxy = goProxyWithoutSecrets(proxy); proxy == "" {
			proxy = "off" // every proxy needed a credential; the public one might be told private module paths
		}
	}
	if shared := goModCache(getenv); shared != "" {
		if fi, err := os.Stat(filepath.Join(shared, "cache", "download")); err == nil && fi.IsDir() {
			proxy = "file://" + filepath.ToSlash(filepath.Join(shared, "cache", "download")) + "," + proxy
		}
	}
	flags := []string{}
	for _, f := range strings.Fields(getenv("GOFLAGS")) {
		// A flag that carries a credential (-ldflags=-X=main.apiKey=...) is left out, as Environ leaves out a
		// variable that does: GOFLAGS is rebuilt here from the user's, not filtered there.
		if f != "-modcacherw" && f != "--modcacherw" && !cmdenv.SecretIn(f) {
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

// goProxyWithoutSecrets is a GOPROXY list less the entries that carry a credential (https://user:pw@host,
// https://host/?token=...): GoCaches passes the user's list itself when the network is on, so a credential in it
// would reach the command. Each entry kept is followed by the separator ("," or "|") that followed it.
func goProxyWithoutSecrets(list string) string {
	var b strings.Builder
	sep := ""
	for _, entry := range strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == '|' }) {
		list = list[strings.Index(list, entry)+len(entry):]
		next := ""
		if list != "" {
			next = list[:1]
		}
		if !cmdenv.SecretIn(entry) {
			b.WriteString(sep + entry)
			sep = next
		}
	}
	return b.String()
}
