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
	// Allow names variables the user lets through beyond cmdenv's list; Drop those the user keeps out.
	Allow, Drop []string
}

// Environment builds one command's environment from Rooted's own: the variables builds need and no credential
// (cmdenv.Environ), the project's private caches (toolcache), git's and cargo's configuration without their
// credentials, and empty npm and pip configuration files in place of the user's. dropped is how many of Rooted's
// variables the command does not get.
func Environment(r EnvRequest) (env []string, dropped int, err error) {
	caches := toolcache.ToolCacheDir(r.Project)
	extra, _ := toolcache.GoCaches(caches, r.Network, os.Getenv) // writable in the policy
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
	env, dropped = cmdenv.Environ(os.Environ(), r.Allow, r.Drop, append(fixed, extra...)...)
	return env, dropped, nil
}
