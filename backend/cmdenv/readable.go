package cmdenv

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
)

// Reads in the sandbox are allowlisted like writes: the system's programs, libraries and configuration, the
// toolchains' homes and caches, git's global ignore and attributes files, and what the user adds, less the
// credential locations (Credentials). The rest of the home directory
// (~/.ssh, ~/.aws, ~/.gnupg, ~/.config and Rooted's own configuration in it, ~/.netrc, ~/.docker, ~/.npmrc, browser
// profiles, other projects) and of the machine (/tmp, /var, /home, /root, /mnt, /media) cannot be read.

// SystemReadable are read (and executed) by every build: programs, libraries, the kernel's views of this process.
var SystemReadable = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt", "/nix", "/snap", "/proc", "/sys"}

// etcPrivate are the entries of /etc that hold secrets: password hashes, sudo rules, host and VPN keys, stored
// network passwords. Every other entry of /etc is readable (name resolution, certificates, ld.so.cache, ...).
var etcPrivate = []string{
	"shadow", "shadow-", "gshadow", "gshadow-", "sudoers", "sudoers.d", "krb5.keytab", "NetworkManager", "wireguard",
	"ppp", "docker", "openvpn", "ipsec.secrets", "ipsec.d", "credstore", "credstore.encrypted", "ssh", "ssl", "security",
	"libvirt", "cups",
}

// etcPartly are private folders of /etc with some public entries.
var etcPartly = map[string][]string{
	"ssh":      {"ssh_config", "ssh_config.d", "moduli"},
	"ssl":      {"certs", "openssl.cnf"},
	"security": {"limits.conf", "limits.d", "pam_env.conf"},
}

// homeReadable are toolchain folders and files in the home directory (those that exist): language runtimes and
// version managers, their caches, and the per-tool settings builds read. Credentials beside them (the Credentials
// table) are taken out of every folder opened; git's and cargo's settings come from filtered copies instead.
var homeReadable = []string{
	"go/bin", "go/pkg", ".config/go", ".cache/go-build",
	".npm", ".nvm", ".fnm", ".local/share/fnm", ".volta", ".bun", ".deno", ".yarn", ".cache/yarn", ".local/share/pnpm",
	".cache/node", ".node-gyp", ".cache/node-gyp",
	".cargo/bin", ".cargo/registry", ".cargo/git", ".cargo/config.toml", ".cargo/config", ".cargo/env", ".rustup",
	".pyenv", ".rbenv", ".gem", ".local/bin", ".local/lib", ".cache/pip", ".cache/pypoetry", ".cache/uv", ".local/share/uv",
	".m2/repository", ".gradle/caches", ".gradle/wrapper", ".sdkman", ".asdf", ".local/share/mise",
	".config/git/ignore", ".config/git/attributes",
}

// envReadable are variables naming toolchain homes that may lie outside the usual places.
// GOPATH and CARGO_HOME are not among them: their src and credentials are not the toolchain's; their parts that
// are come below.
var envReadable = []string{
	"GOROOT", "GOMODCACHE", "GOCACHE", "RUSTUP_HOME", "NVM_DIR", "FNM_DIR", "VOLTA_HOME",
	"BUN_INSTALL", "DENO_DIR", "PYENV_ROOT", "RBENV_ROOT", "SDKMAN_DIR", "ASDF_DIR", "ASDF_DATA_DIR", "npm_config_cache",
	"NPM_CONFIG_CACHE", "PNPM_HOME", "GRADLE_USER_HOME",
}

// Readable returns what a sandboxed command may read besides what it may write: the system's folders and /etc
// less its private entries, the toolchains (in home, named by getenv, and the folders on PATH), git's global ignore
// and attributes files, and extra, less the credential locations. Only paths that exist are returned; home itself
// and its parents never are.
func Readable(home string, getenv func(string) string, extra ...string) []string {
	var out []string
	seen := map[string]bool{}
	creds := credentialPaths(home, getenv)
	add := func(p string) {
		if p == "" || !filepath.IsAbs(p) {
			return
		}
		p = filepath.Clean(p)
		if seen[p] || tooWide(p, home) {
			return
		}
		if _, err := os.Stat(p); err != nil {
			return
		}
		seen[p] = true
		out = append(out, withoutCredentials(p, creds)...)
	}
	if runtime.GOOS != "windows" {
		for _, p := range SystemReadable {
			add(p)
		}
		for _, p := range EtcEntries("/etc") {
			add(p)
		}
		// /etc/resolv.conf is often a link into /run.
		if real, err := filepath.EvalSymlinks("/etc/resolv.conf"); err == nil {
			add(real)
		}
	}
	if home != "" {
		for _, rel := range homeReadable {
			add(filepath.Join(home, filepath.FromSlash(rel)))
		}
	}
	// Go and git look for their settings under $XDG_CONFIG_HOME when it is set; of git's, only the ignore and
	// attributes files (its config and credentials are not for commands).
	if x := getenv("XDG_CONFIG_HOME"); x != "" {
		add(filepath.Join(x, "go"))
		add(filepath.Join(x, "git", "ignore"))
		add(filepath.Join(x, "git", "attributes"))
	}
	for _, name := range envReadable {
		for _, p := range filepath.SplitList(getenv(name)) {
			add(p)
		}
	}
	for _, p := range filepath.SplitList(getenv("GOPATH")) {
		add(filepath.Join(p, "bin"))
		add(filepath.Join(p, "pkg"))
	}
	if ch := getenv("CARGO_HOME"); ch != "" {
		for _, sub := range []string{"bin", "registry", "git", "config.toml", "config", "env"} {
			add(filepath.Join(ch, sub))
		}
	}
	for _, p := range filepath.SplitList(getenv("PATH")) {
		add(p)
	}
	for _, p := range extra {
		add(p)
	}
	// This binary: a sandboxed go command runs it as its build cache program (GoCaches).
	if exe, err := os.Executable(); err == nil {
		add(exe)
	}
	return out
}

// tooWide refuses a folder that would open up what the allowlist keeps closed: the file-system root, the home
// directory or a folder above it, and the shared temporary folders.
func tooWide(p, home string) bool {
	if p == string(filepath.Separator) || p == filepath.Clean(os.TempDir()) || p == "/tmp" || p == "/var/tmp" {
		return true
	}
	if home == "" {
		return false
	}
	home = filepath.Clean(home)
	return p == home || strings.HasPrefix(home, p+string(filepath.Separator))
}

// EtcEntries lists /etc's entries less the private ones, with the public parts of partly private folders.
func EtcEntries(etc string) []string {
	entries, err := os.ReadDir(etc)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		name := e.Name()
		if !slices.Contains(etcPrivate, name) {
			out = append(out, filepath.Join(etc, name))
			continue
		}
		for _, sub := range etcPartly[name] {
			out = append(out, filepath.Join(etc, name, sub))
		}
	}
	return out
}

// Summarize shortens a readable list for people and models: /etc's many entries become one line.
func Summarize(readable []string) []string {
	var out []string
	etc := false
	for _, p := range readable {
		if strings.HasPrefix(p, "/etc/") {
			if !etc {
				out = append(out, "/etc (less "+strings.Join(etcPrivate, ", ")+")")
				etc = true
			}
			continue
		}
		out = append(out, p)
	}
	return out
}
