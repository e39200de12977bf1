package shell

import (
	"regexp"
	"slices"
	"strings"
	"sync"
)

// secretSuffixes and secretPrefixes mark variables that must not reach a command the model chose: API keys,
// tokens, passwords and cloud credentials. Extra names (the app's own keys) are passed to Env.
var (
	secretSuffixes = []string{
		"_API_KEY", "_APIKEY", "_KEY", "_TOKEN", "_SECRET", "_SECRET_KEY", "_PASSWORD", "_PASSWD", "_PASS", "_PWD",
		"_PASSPHRASE", "_CREDENTIALS", "_AUTH", "_DSN", "_DATABASE_URL",
	}
	secretPrefixes = []string{"AWS_", "AZURE_", "GOOGLE_APPLICATION_CREDENTIALS", "GCP_", "OPENAI_", "ANTHROPIC_", "DBUS_", "NPM_CONFIG__AUTH", "NPM_CONFIG_//"}
	// secretNames are credentials by a name of their own, and the ways out of the sandbox a variable can name:
	// the SSH and GPG agents, the desktop's message bus and display.
	secretNames = []string{
		"PGPASSWORD", "PGPASSFILE", "MYSQL_PWD", "DATABASE_URL", "REDIS_URL", "MONGODB_URI", "GITHUB_TOKEN", "GH_TOKEN",
		"NPM_TOKEN", "SSH_AUTH_SOCK", "SSH_AGENT_PID", "GPG_AGENT_INFO", "KRB5CCNAME", "DISPLAY", "WAYLAND_DISPLAY",
		"XAUTHORITY", "SESSION_MANAGER",
	}
	// secretValue matches values shaped like credentials whatever the variable's name: URLs with a password,
	// private keys, and the token formats of the common services.
	secretValue = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`://[^/\s:@]+:[^/\s@]+@|-----BEGIN [A-Z ]*PRIVATE KEY|\b(sk-[A-Za-z0-9_-]{20,}|sk-ant-[A-Za-z0-9_-]{10,}|gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,}|glpat-[A-Za-z0-9_-]{20,}|xox[abprs]-[A-Za-z0-9-]{10,}|A[KS]IA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{35}|npm_[A-Za-z0-9]{36}|eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.)`)
	}) // compiled on first use: start-up stays short
)

// forced are set for every command: no colour codes or pagers in captured output, no prompts that would wait for
// input that never comes.
var forced = []string{"TERM=dumb", "NO_COLOR=1", "PAGER=cat", "GIT_PAGER=cat", "GIT_TERMINAL_PROMPT=0", "CI=1"}

// Env returns base without secrets, without the names in drop, with forced settings and extra (NAME=value) on top.
func Env(base []string, drop []string, extra ...string) []string {
	out := make([]string, 0, len(base)+len(forced)+len(extra))
	for _, kv := range base {
		name, value, _ := strings.Cut(kv, "=")
		if secret(name) || secretValue().MatchString(value) || slices.Contains(drop, name) || isForced(name) || overridden(name, extra) {
			continue
		}
		out = append(out, kv)
	}
	return append(append(out, forced...), extra...)
}

func secret(name string) bool {
	upper := strings.ToUpper(name)
	for _, s := range secretSuffixes {
		if strings.HasSuffix(upper, s) {
			return true
		}
	}
	for _, p := range secretPrefixes {
		if strings.HasPrefix(upper, p) {
			return true
		}
	}
	return slices.Contains(secretNames, upper)
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
