package mcpclient

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sync"

	"github.com/rooted-dev/rooted/backend/cmdenv"
	"github.com/rooted-dev/rooted/backend/sandbox"
	"github.com/rooted-dev/rooted/backend/toolcache"

	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/shell"
)

// serverName is what a server may be called: its name becomes part of its tools' names and of a folder's.
var serverName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$`) })

// DataDir is the private folder of the server name in the project at root: its HOME, its temporary folder and
// its caches, kept between runs. The project's part is the id Rooted keys the project's tool caches by, which
// changes when the folder at root is another one (toolcache.ToolCacheDir).
func (m *Manager) DataDir(name string) string {
	return filepath.Join(m.opts.DataDir, filepath.Base(toolcache.ToolCacheDir(m.opts.Root)), name)
}

// stdioSpec is how the program of server name starts: in the project, in the sandbox, with the environment
// commands get and a home of its own.
func (m *Manager) stdioSpec(name string, cfg settings.MCPServer, proj settings.Project, refused func(Refusal)) (shell.StdioSpec, string, error) {
	if !serverName().MatchString(name) {
		return shell.StdioSpec{}, "", fmt.Errorf("the server's name %q is not one letters, digits, - and _ make (at most 40)", name)
	}
	data := m.DataDir(name)
	home, tmp, cache := filepath.Join(data, "home"), filepath.Join(data, "tmp"), filepath.Join(data, "cache")
	for _, d := range []string{home, tmp, cache} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return shell.StdioSpec{}, "", fmt.Errorf("making the server's data folder: %w", err)
		}
	}
	// npm and pip read credentials from the user's config files; a server gets empty ones, as commands do.
	npmrc := filepath.Join(data, "npmrc")
	if err := os.WriteFile(npmrc, nil, 0o600); err != nil {
		return shell.StdioSpec{}, "", err
	}
	userHome, _ := os.UserHomeDir()
	readable := append([]string{m.opts.Root}, proj.Readable...)
	readable = append(readable, cfg.Readable...)
	writable := []string{data}
	if cfg.WriteProject {
		writable = append(writable, m.opts.Root)
	}
	policy := sandbox.Policy{
		Readable: cmdenv.Readable(userHome, os.Getenv, readable...),
		Writable: writable,
		Network:  proj.Network.On() || cfg.Network,
		Sockets:  proj.UnixSockets,
	}
	// A project whose commands reach only listed hosts gives its servers the same way out: the proxy, for as long
	// as the server runs, with the project's hosts, those allowed for this server alone and the project's rules as
	// they are at each connection (no one is there to ask about another: what it refuses is recorded, refused).
	policy.Proxied = !policy.Network && proj.Network == settings.NetworkAllowlist && m.opts.Proxy != nil
	info := m.opts.Probe(policy)
	extra := []string{
		"HOME=" + home, "TMPDIR=" + tmp, "XDG_CACHE_HOME=" + cache, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"), "npm_config_cache=" + filepath.Join(cache, "npm"),
		"NPM_CONFIG_USERCONFIG=" + npmrc, "PIP_CONFIG_FILE=" + os.DevNull, "PWD=" + m.opts.Root,
	}
	// What the user wrote in the server's entry is theirs to give, and comes last so that it wins: the variables
	// env_vars names, as they are, then env with its references resolved. Granted by name, these pass whatever the
	// credential table says; every variable not named is still held to it.
	for _, k := range cfg.EnvVars {
		v, ok := m.opts.LookupEnv(k)
		if !ok {
			return shell.StdioSpec{}, "", fmt.Errorf("env_vars names %s, which is not set in Rooted's environment", k)
		}
		extra = append(extra, k+"="+v)
	}
	env, err := m.resolver().expandAll("env", cfg.Env)
	if err != nil {
		return shell.StdioSpec{}, "", err
	}
	for _, k := range sortedNames(env) {
		extra = append(extra, k+"="+env[k])
	}
	// The proxy's variables come before the user's own, which win.
	extra = append(shell.ProxyEnv(info.Proxy), extra...)
	environ, _ := cmdenv.Environ(os.Environ(), proj.EnvAllow, m.opts.SecretEnv, extra...)
	argv := append([]string{cfg.Command}, cfg.Args...)
	spec := shell.StdioSpec{Argv: slices.Clip(argv), Dir: m.opts.Root, Env: environ, Policy: policy, Sandbox: info}
	if info.Proxy != "" {
		spec.Proxy = m.opts.Proxy(ProxyRules{Lists: m.lists(name), Refused: refused})
	}
	return spec, data, nil
}
