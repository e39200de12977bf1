package cmdenv

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Credentials are where the common toolchains keep secrets, relative to the home folder: one table, which Readable
// subtracts from every folder it opens (a readable folder holding one becomes its other entries), and which the
// secret-table test plants and reads back row by row. Settings that hold a secret beside settings builds need
// (git's and cargo's configuration) are replaced by filtered copies (gitconfig.SandboxGlobal, CargoHome). Users add
// their own locations with ROOTED_CREDENTIALS (a path list, absolute or relative to the home folder).
var Credentials = []string{
	// git
	".git-credentials", ".config/git/credentials", ".gitconfig", ".config/git/config",
	// ssh, gpg, cloud and containers
	".ssh", ".gnupg", ".aws", ".azure", ".config/gcloud", ".kube", ".docker", ".netrc", ".terraform.d/credentials.tfrc.json",
	// JavaScript
	".npmrc", ".yarnrc", ".yarnrc.yml", ".bunfig.toml", ".config/yarn", ".local/share/pnpm/rc", ".config/pnpm/rc",
	// Rust
	".cargo/credentials.toml", ".cargo/credentials", ".cargo/config.toml", ".cargo/config",
	// Python
	".pypirc", ".local/share/uv/credentials", ".config/uv/uv.toml", ".config/pip", ".pip/pip.conf",
	".config/pypoetry/auth.toml", ".local/share/python_keyring",
	// Ruby, PHP, Java, .NET
	".gem/credentials", ".local/share/gem/credentials", ".bundle/config", ".composer/auth.json",
	".config/composer/auth.json", ".m2/settings.xml", ".m2/settings-security.xml", ".gradle/gradle.properties",
	".nuget/NuGet/NuGet.Config",
	// Go: go env -w writes GOPROXY, GOPRIVATE, GOAUTH here, a proxy's password too
	".config/go/env",
	// forges and this app
	".config/gh", ".config/hub", ".config/glab-cli", ".config/rooted",
}

// SystemCredentials are the toolchains' system-wide settings that can hold a registry's or an index's
// credentials, as absolute paths; npm's global npmrc under each node installation's prefix joins them
// (nodePrefixCredentials).
var SystemCredentials = []string{
	"/etc/npmrc", "/usr/etc/npmrc", "/usr/local/etc/npmrc", "/etc/pip.conf", "/etc/xdg/pip/pip.conf", "/etc/pypirc",
	"/etc/gitconfig", "/etc/yarnrc", "/etc/.yarnrc", "/usr/local/etc/gitconfig",
}

// envCredentials are variables that name where a toolchain keeps its settings or credentials (a file, or a folder
// and the file in it): the user may keep them outside the usual places.
var envCredentials = [][2]string{
	{"GOENV", ""},
	{"NPM_CONFIG_USERCONFIG", ""},
	{"npm_config_userconfig", ""},
	{"NPM_CONFIG_GLOBALCONFIG", ""},
	{"npm_config_globalconfig", ""},
	{"PIP_CONFIG_FILE", ""},
	{"GIT_CONFIG_GLOBAL", ""},
	{"CARGO_HOME", "credentials.toml"},
	{"CARGO_HOME", "credentials"},
	{"GRADLE_USER_HOME", "gradle.properties"},
	{"DOCKER_CONFIG", ""},
	{"AWS_SHARED_CREDENTIALS_FILE", ""},
	{"AWS_CONFIG_FILE", ""},
	{"KUBECONFIG", ""},
	{"NETRC", ""},
	{"CLOUDSDK_CONFIG", ""},
	{"AZURE_CONFIG_DIR", ""},
	{"GH_CONFIG_DIR", ""},
	{"GNUPGHOME", ""},
	{"PYPIRC", ""},
	{"BUNDLE_USER_CONFIG", ""},
	{"COMPOSER_AUTH", ""},
	{"COMPOSER_HOME", "auth.json"},
	{"UV_CONFIG_FILE", ""},
	{"POETRY_CONFIG_DIR", "auth.toml"},
	{"XDG_CONFIG_HOME", "go/env"},
	// Rooted's own providers and the keys file (where no keyring holds them), wherever the config folder is.
	{"XDG_CONFIG_HOME", "rooted"},
}

// onlyWithSecrets are the rows that are credentials only while they hold one: cargo reads ~/.cargo/config.toml for
// every project below the home folder (looking for .cargo/config.toml in each parent folder) and stops when it may
// not, so the file stays readable unless it holds a token. A token belongs in credentials.toml (cargo login). Go's
// env file holds GOPRIVATE and GOFLAGS builds need, and is a credential only when a URL in it carries a user name or
// password, or it sets GOAUTH.
var onlyWithSecrets = map[string]func([]byte) bool{
	".cargo/config.toml": func(b []byte) bool { return !bytes.Equal(FilterTOMLSecrets(b), b) },
	".cargo/config":      func(b []byte) bool { return !bytes.Equal(FilterTOMLSecrets(b), b) },
	".config/go/env":     goEnvSecret,
}

// goEnvSecret reports whether a go env file holds a credential: a value shaped like one or assigning one (GOPROXY=
// https://proxy/?token=...), or GOAUTH.
func goEnvSecret(b []byte) bool {
	return SecretIn(string(b)) || bytes.Contains(b, []byte("GOAUTH="))
}

// credentialPaths is Credentials under home, with the user's own from ROOTED_CREDENTIALS.
func credentialPaths(home string, getenv func(string) string) []string {
	var out []string
	if home != "" {
		for _, rel := range Credentials {
			p := filepath.Join(home, filepath.FromSlash(rel))
			if holds := onlyWithSecrets[rel]; holds != nil {
				if b, err := os.ReadFile(p); err != nil || !holds(b) {
					continue
				}
			}
			out = append(out, p)
		}
	}
	for _, e := range envCredentials {
		for _, v := range filepath.SplitList(getenv(e[0])) {
			if !filepath.IsAbs(v) {
				continue
			}
			p := filepath.Join(v, e[1])
			if e[1] == "go/env" {
				if b, err := os.ReadFile(p); err != nil || !goEnvSecret(b) {
					continue
				}
			}
			out = append(out, p)
		}
	}
	for _, p := range append(append([]string{}, SystemCredentials...), nodePrefixCredentials(getenv)...) {
		if _, err := os.Lstat(p); err == nil { // only those that exist: a folder holding one is opened entry by entry
			out = append(out, p)
		}
	}
	for _, p := range filepath.SplitList(getenv("ROOTED_CREDENTIALS")) {
		if p == "" {
			continue
		}
		if !filepath.IsAbs(p) {
			if home == "" {
				continue
			}
			p = filepath.Join(home, p)
		}
		out = append(out, filepath.Clean(p))
	}
	return out
}

// nodePrefixCredentials are npm's global configuration files ($(npm prefix -g)/etc/npmrc) of the node
// installations on PATH: a node in PREFIX/bin has its global npmrc in PREFIX/etc/npmrc.
func nodePrefixCredentials(getenv func(string) string) []string {
	var out []string
	for _, dir := range filepath.SplitList(getenv("PATH")) {
		if !filepath.IsAbs(dir) {
			continue
		}
		if fi, err := os.Stat(filepath.Join(dir, "node")); err != nil || fi.IsDir() {
			continue
		}
		out = append(out, filepath.Join(filepath.Dir(filepath.Clean(dir)), "etc", "npmrc"))
		if real, err := filepath.EvalSymlinks(filepath.Join(dir, "node")); err == nil {
			out = append(out, filepath.Join(filepath.Dir(filepath.Dir(real)), "etc", "npmrc"))
		}
	}
	return out
}

// withoutCredentials returns p, or, when a credential location lies below it, p's entries less that location
// (recursively): Landlock only allows, so a folder is opened entry by entry around what it must not show. A
// credential location itself, or anything below one, is dropped.
func withoutCredentials(p string, creds []string) []string {
	for _, c := range creds {
		if p == c || strings.HasPrefix(p, c+string(filepath.Separator)) {
			return nil
		}
	}
	var inside []string
	for _, c := range creds {
		if strings.HasPrefix(c, p+string(filepath.Separator)) {
			inside = append(inside, c)
		}
	}
	if len(inside) == 0 {
		return []string{p}
	}
	entries, err := os.ReadDir(p)
	if err != nil {
		return nil // unreadable here: nothing to open
	}
	var out []string
	for _, e := range entries {
		out = append(out, withoutCredentials(filepath.Join(p, e.Name()), inside)...)
	}
	return out
}

// secretKey matches configuration keys (TOML or git, any case) whose value is a credential.
var secretKey = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^\s*["']?([a-z0-9_.-]*[._-])?(token|password|passwd|secret|credential-provider|global-credential-providers|credential-alias)["']?\s*=`)
})

// FilterTOMLSecrets drops the lines of a TOML file that set a credential (token = ..., credential-provider = [...]
// across lines too), and inline tables holding one.
func FilterTOMLSecrets(b []byte) []byte {
	var out []string
	lines := strings.Split(string(b), "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if secretKey().MatchString(line) || inlineSecret(line) {
			// A multi-line array goes with its key.
			if open := strings.Count(line, "[") - strings.Count(line, "]"); open > 0 {
				for i+1 < len(lines) && open > 0 {
					i++
					open += strings.Count(lines[i], "[") - strings.Count(lines[i], "]")
				}
			}
			continue
		}
		out = append(out, line)
	}
	return []byte(strings.Join(out, "\n"))
}

func inlineSecret(line string) bool {
	_, rest, ok := strings.Cut(line, "{")
	if !ok {
		return false
	}
	return slices.ContainsFunc(strings.Split(rest, ","), func(part string) bool { return secretKey().MatchString(part) })
}
