package cmdenv

import (
	"regexp"
	"slices"
	"strings"
	"sync"
)

// A command gets the variables builds need and nothing else: envAllowed names them exactly, or by a prefix ending
// in "*". Whatever is not named (a session token, a webhook, a password under a name no list foresaw) is dropped
// unless the user names it in Settings. A name that reads as a credential (its words, secretWords) and a value
// shaped like one are dropped even where a prefix would let them through.
var envAllowed = []string{
	// the system and the shell
	"PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LANGUAGE", "LC_*", "TZ", "TERM", "TMPDIR", "PWD", "OLDPWD",
	"HOSTNAME", "COLUMNS", "LINES", "CI", "SOURCE_DATE_EPOCH", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME",
	"XDG_STATE_HOME", "XDG_DATA_DIRS", "XDG_CONFIG_DIRS",
	// certificates and proxies (a proxy URL holding a password is dropped by its value)
	"SSL_CERT_FILE", "SSL_CERT_DIR", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY",
	"ALL_PROXY", "http_proxy", "https_proxy", "no_proxy", "all_proxy",
	// C and native builds
	"CC", "CXX", "CPP", "AR", "LD", "CFLAGS", "CXXFLAGS", "CPPFLAGS", "LDFLAGS", "MAKEFLAGS", "PKG_CONFIG_PATH",
	"LD_LIBRARY_PATH", "LIBRARY_PATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH", "CGO_*",
	// Go
	"GO*",
	// Node and its package managers
	"NODE_*", "npm_config_*", "NPM_CONFIG_*", "NVM_*", "FNM_*", "VOLTA_HOME", "PNPM_HOME", "BUN_INSTALL", "YARN_*",
	"COREPACK_*", "DENO_DIR", "DENO_INSTALL",
	// Rust
	"CARGO_*", "RUSTUP_*", "RUSTFLAGS", "RUSTDOCFLAGS", "RUSTC", "RUSTC_WRAPPER", "RUST_BACKTRACE", "RUST_LOG",
	// Java and the JVM's builds
	"JAVA_HOME", "JAVA_OPTS", "JAVA_TOOL_OPTIONS", "JDK_HOME", "MAVEN_OPTS", "M2_HOME", "MAVEN_HOME", "GRADLE_USER_HOME",
	"GRADLE_OPTS", "GRADLE_HOME", "SDKMAN_DIR", "KOTLIN_HOME", "ANDROID_HOME", "ANDROID_SDK_ROOT",
	// Python
	"PYTHON*", "VIRTUAL_ENV", "CONDA_PREFIX", "CONDA_DEFAULT_ENV", "PYENV_*", "PIP_*", "PIPX_*", "POETRY_*", "UV_*",
	// Ruby, version managers
	"GEM_HOME", "GEM_PATH", "RBENV_*", "RUBYOPT", "ASDF_*", "MISE_*",
	// git: who commits, and which configuration it reads
	"GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "GIT_CONFIG_GLOBAL",
	"GIT_CONFIG_NOSYSTEM",
}

// secretWords mark a variable as a credential wherever they stand in its name (split at every character that is
// not a letter or digit, so npm's "//registry/:_authToken" reads AUTHTOKEN): NODE_AUTH_TOKEN, CARGO_REGISTRY_TOKEN,
// UV_INDEX_X_PASSWORD, BW_SESSION, OP_SESSION_x, SECRET_KEY_BASE, SLACK_WEBHOOK_URL, DOCKER_AUTH_CONFIG.
var secretWords = []string{
	"TOKEN", "AUTHTOKEN", "SECRET", "SECRETS", "PASSWORD", "PASSWD", "PASS", "PASSPHRASE", "CREDENTIAL", "CREDENTIALS",
	"AUTH", "KEY", "APIKEY", "SESSION", "COOKIE", "PRIVATE", "WEBHOOK", "DSN", "PAT", "CERTPASS", "OTP", "TOTP",
}

// secretNames are credentials, or ways out of the sandbox, under names no word gives away.
var secretNames = []string{
	"PGPASSFILE", "MYSQL_PWD", "DATABASE_URL", "REDIS_URL", "MONGODB_URI", "SSH_AUTH_SOCK", "SSH_AGENT_PID",
	"GPG_AGENT_INFO", "KRB5CCNAME", "DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY", "SESSION_MANAGER", "GOAUTH",
}

// secretValue matches values shaped like credentials whatever the variable's name: URLs with a user name (a token
// often stands there alone: https://TOKEN@host) or a password, private keys, the token formats of the common
// services, and an option inside an option variable (JAVA_TOOL_OPTIONS, MAVEN_OPTS, GRADLE_OPTS, SBT_OPTS,
// NODE_OPTIONS ...) that sets a password, token or secret: -Dhttp.proxyPassword=..., -Dsonar.token=...,
// --api-token=....
var secretValue = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`://[^/\s@]+@|-----BEGIN [A-Z ]*PRIVATE KEY|(^|\s)-{1,2}[A-Za-z0-9_.:-]*(?i:password|passwd|passphrase|token|secret|apikey|api-key|api_key|credentials?)[A-Za-z0-9_.-]*=|\b(sk-[A-Za-z0-9_-]{20,}|sk-ant-[A-Za-z0-9_-]{10,}|gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,}|glpat-[A-Za-z0-9_-]{20,}|xox[abprs]-[A-Za-z0-9-]{10,}|A[KS]IA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{35}|npm_[A-Za-z0-9]{36}|eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.)`)
}) // compiled on first use: start-up stays short

// forced are set for every command: no colour codes or pagers in captured output, no prompts that would wait for
// input that never comes.
var forced = []string{"TERM=dumb", "NO_COLOR=1", "PAGER=cat", "GIT_PAGER=cat", "GIT_TERMINAL_PROMPT=0", "CI=1"}

// Env is Environ with no variables of the user's own: base less what is not needed or secret, with forced settings
// and extra (NAME=value) on top.
func Env(base []string, drop []string, extra ...string) []string {
	env, _ := Environ(base, nil, drop, extra...)
	return env
}

// Environ returns the variables of base a command may have, with forced settings and extra on top, and how many
// of base it left out. A variable passes when envAllowed or allow (the user's names, exact or "PREFIX*") names it,
// its value does not look like a credential, and it is not in drop (the app's own keys); a name of envAllowed's
// must not read as a credential either, while a name the user gave stands for itself.
func Environ(base []string, allow []string, drop []string, extra ...string) ([]string, int) {
	out := make([]string, 0, len(base)+len(forced)+len(extra))
	dropped := 0
	for _, kv := range base {
		name, value, _ := strings.Cut(kv, "=")
		if isForced(name) || overridden(name, extra) {
			continue // replaced, not dropped
		}
		byUser := matches(allow, name)
		if !byUser && (!matches(envAllowed, name) || secret(name)) || SecretIn(value) || slices.Contains(drop, name) {
			dropped++
			continue
		}
		out = append(out, kv)
	}
	return append(append(out, forced...), extra...), dropped
}

// matches reports whether a pattern of list (a name, or a prefix ending in "*") names name.
func matches(list []string, name string) bool {
	for _, p := range list {
		if prefix, ok := strings.CutSuffix(p, "*"); ok && strings.HasPrefix(name, prefix) || p == name {
			return true
		}
	}
	return false
}

// secret reports whether a variable's name reads as a credential.
func secret(name string) bool {
	upper := strings.ToUpper(name)
	if slices.Contains(secretNames, upper) {
		return true
	}
	words := strings.FieldsFunc(upper, func(r rune) bool { return (r < 'A' || r > 'Z') && (r < '0' || r > '9') })
	for _, w := range words {
		if slices.Contains(secretWords, w) {
			return true
		}
	}
	return false
}

func isForced(name string) bool { return overridden(name, forced) }

func overridden(name string, kvs []string) bool {
	for _, kv := range kvs {
		if n, _, _ := strings.Cut(kv, "="); n == name {
			return true
		}
	}
	return false
}
