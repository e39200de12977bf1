package shell

import (
	"os"
	"path/filepath"
)

// ToolchainCaches are the directories build tools write to outside a project (Go's build and module caches, npm,
// yarn, pnpm, cargo and bun caches), those that exist. The sandbox lets commands write there.
func ToolchainCaches() []string {
	home, _ := os.UserHomeDir()
	cache, _ := os.UserCacheDir()
	gopath := os.Getenv("GOPATH")
	if gopath == "" && home != "" {
		gopath = filepath.Join(home, "go")
	}
	var dirs []string
	add := func(paths ...string) {
		for _, p := range paths {
			if p == "" {
				continue
			}
			if fi, err := os.Stat(p); err == nil && fi.IsDir() {
				dirs = append(dirs, p)
			}
		}
	}
	add(os.Getenv("GOCACHE"), os.Getenv("GOMODCACHE"), os.Getenv("npm_config_cache"), os.Getenv("NPM_CONFIG_CACHE"))
	if ch := os.Getenv("CARGO_HOME"); ch != "" {
		add(filepath.Join(ch, "registry"), filepath.Join(ch, "git"))
	}
	if cache != "" {
		add(filepath.Join(cache, "go-build"), filepath.Join(cache, "yarn"))
	}
	if gopath != "" {
		add(filepath.Join(gopath, "pkg", "mod"))
	}
	if home != "" {
		add(filepath.Join(home, ".npm"), filepath.Join(home, ".local", "share", "pnpm"),
			filepath.Join(home, ".cargo", "registry"), filepath.Join(home, ".cargo", "git"),
			filepath.Join(home, ".bun", "install", "cache"))
	}
	return dirs
}
