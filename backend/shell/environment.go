package shell

import (
	"os"
	"path/filepath"

	"github.com/rooted-dev/rooted/backend/cmdenv"
	"github.com/rooted-dev/rooted/backend/gitconfig"
	"github.com/rooted-dev/rooted/backend/toolcache"
)

// EnvRequest is what one command's environment is built from.
type EnvRequest struct {
	// Project is the project's folder, and Root the same folder opened: its private caches are keyed by it, and
	// npm's is seeded from what its lockfile names.
	Project string
	Root    *os.Root
	// Cwd is the command's working directory as the user knows it (PWD).
	Cwd string
	// Tmp is the command's private temporary folder: the filtered copies of the user's configuration go there.
	Tmp     string
	Program string // argv[0]
	Network bool
	// Proxy, in allow-list mode, is the proxy's address inside the command's network namespace
	// (sandbox.Info.Proxy): every client that reads the usual variables sends its requests there.
	Proxy string
	// Allow names variables the user lets through beyond cmdenv's list; Drop those the user keeps out.
	Allow, Drop []string
}

// Environment builds one command's environment from Rooted's own: the variables builds need and no credential
// (cmdenv.Environ), the project's private caches (toolcache), git's and cargo's configuration without their
// credentials, and empty npm and pip configuration files in place of the user's. dropped is how many of Rooted's
// variables the command does not get.
func Environment(r EnvRequest) (env []string, dropped int, err error) {
	caches := toolcache.ToolCacheDir(r.Project)
	extra, _ := toolcache.GoCaches(caches, r.Network || r.Proxy != "", os.Getenv) // writable in the policy
	// git and cargo read credentials from the user's configuration; commands get filtered copies instead.
	gitEnv, _ := gitconfig.SandboxGlobal(r.Tmp, os.Getenv)
	extra = append(append(extra, gitEnv...), toolcache.CargoHome(r.Tmp, caches, os.Getenv)...)
	extra = append(extra, toolcache.PackageCaches(caches, os.Getenv)...) // writable in the policy
	if (r.Program == "npm" || r.Program == "npx") && r.Root != nil {
		// npm's cache is the project's own; what the lockfile names comes from the user's, by hash.
		toolcache.SeedNpmCache(caches, r.Root, os.Getenv)
	}
	// npm and pip read credentials from the user's config files; commands get empty ones instead.
	npmrc := filepath.Join(r.Tmp, ".npmrc")
	if err := os.WriteFile(npmrc, nil, 0o600); err != nil {
		return nil, 0, err
	}
	// PWD names the directory as the user knows it; a program that finds it is not where it runs asks the kernel
	// instead.
	fixed := []string{"PWD=" + r.Cwd, "TMPDIR=" + r.Tmp, "NPM_CONFIG_USERCONFIG=" + npmrc, "PIP_CONFIG_FILE=" + os.DevNull}
	fixed = append(fixed, ProxyEnv(r.Proxy)...)
	env, dropped = cmdenv.Environ(os.Environ(), r.Allow, r.Drop, append(fixed, extra...)...)
	return env, dropped, nil
}

// ProxyEnv is what points a command's clients at the proxy at addr (host:port) in allow-list mode: the variables
// curl, git, Go, Python, pip and Node's fetch read, npm's and cargo's own, and none when addr is empty. Loopback,
// inside the command's own namespace, is reached directly.
func ProxyEnv(addr string) []string {
	if addr == "" {
		return nil
	}
	u := "http://" + addr
	env := []string{"NO_PROXY=localhost,127.0.0.1,::1", "no_proxy=localhost,127.0.0.1,::1"}
	for _, name := range []string{"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy", "npm_config_proxy", "npm_config_https_proxy", "CARGO_HTTP_PROXY"} {
		env = append(env, name+"="+u)
	}
	return env
}
