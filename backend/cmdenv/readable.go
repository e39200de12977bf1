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

// etcReadable is what programs need from /etc, by entry (those that exist are readable): name resolution, users
// and groups without their passwords, the dynamic linker's configuration, locale and time zone, Debian's
// alternatives (where /usr/bin/cc, java, editor lead), certificates and TLS settings, the OS's release, MIME and
// file-type tables, terminal descriptions, and the system configurations of the toolchains that hold no secrets
// (Java's, Python's, Perl's). Everything else in /etc is unreadable, whatever its name: a secret file no list
// foresaw (a database's maintenance password, a CI runner's token, apt's auth.conf, a Wi-Fi password in netplan,
// cifs passwords in fstab, a system-wide npmrc or pip.conf) stays closed, even to a command running as root.
var etcReadable = []string{
	// name resolution and the network's tables
	"hosts", "host.conf", "resolv.conf", "nsswitch.conf", "gai.conf", "services", "protocols", "networks", "rpc",
	"hostname", "ethertypes", "netconfig",
	// users and groups (not shadow, gshadow)
	"passwd", "group",
	// the dynamic linker
	"ld.so.cache", "ld.so.conf", "ld.so.conf.d", "ld.so.preload",
	// locale and time zone
	"locale.alias", "locale.conf", "locale.gen", "localtime", "timezone", "zoneinfo",
	// programs chosen by the system
	"alternatives",
	// certificates and TLS
	"ca-certificates", "ca-certificates.conf", "gnutls", "crypto-policies", "pkcs11", "gss", "krb5.conf",
	// the OS
	"os-release", "lsb-release", "debian_version", "redhat-release", "system-release", "system-release-cpe",
	"alpine-release", "arch-release", "fedora-release", "mtab",
	// file types, terminals, fonts, XML catalogues
	"mime.types", "magic", "magic.mime", "terminfo", "inputrc", "shells", "fonts", "xml", "sgml",
	// toolchains' system configuration
	"perl", "gitattributes",
}

// etcReadablePrefixes are entries read by the name's start: versioned toolchain folders (java-17-openjdk,
// python3.11: Debian links the JDK's conf and Python's sitecustomize.py there).
var etcReadablePrefixes = []string{"java-", "python3", "ImageMagick-"}

// etcPartly are folders of /etc with secrets beside the entries programs need: host keys beside ssh's client
// configuration, private keys beside the certificates.
var etcPartly = map[string][]string{
	"ssh":     {"ssh_config", "ssh_config.d", "ssh_known_hosts", "moduli"},
	"ssl":     {"certs", "openssl.cnf"},
	"pki":     {"tls/certs", "tls/cert.pem", "tls/openssl.cnf", "ca-trust", "java"},
	"default": {"locale"},
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

// EtcEntries lists the entries of etc programs may read (etcReadable, etcReadablePrefixes, etcPartly).
func EtcEntries(etc string) []string {
	entries, err := os.ReadDir(etc)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		name := e.Name()
		if slices.Contains(etcReadable, name) || slices.ContainsFunc(etcReadablePrefixes, func(p string) bool { return strings.HasPrefix(name, p) }) {
			out = append(out, filepath.Join(etc, name))
			continue
		}
		for _, sub := range etcPartly[name] {
			out = append(out, filepath.Join(etc, name, filepath.FromSlash(sub)))
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
				out = append(out, "/etc: only what programs need (name resolution, certificates, users and groups without passwords, ld.so, locale, time zone, alternatives, OS release, toolchains' settings)")
				etc = true
			}
			continue
		}
		out = append(out, p)
	}
	return out
}
