package shell

import (
	"slices"
	"strings"
)

// secretSuffixes and secretPrefixes mark variables that must not reach a command the model chose: API keys,
// tokens, passwords and cloud credentials. Extra names (the app's own keys) are passed to Env.
var (
	secretSuffixes = []string{"_API_KEY", "_APIKEY", "_TOKEN", "_SECRET", "_SECRET_KEY", "_PASSWORD", "_PASSWD", "_CREDENTIALS"}
	secretPrefixes = []string{"AWS_", "AZURE_", "GOOGLE_APPLICATION_CREDENTIALS", "GCP_", "OPENAI_", "ANTHROPIC_"}
)

// forced are set for every command: no colour codes or pagers in captured output, no prompts that would wait for
// input that never comes.
var forced = []string{"TERM=dumb", "NO_COLOR=1", "PAGER=cat", "GIT_PAGER=cat", "GIT_TERMINAL_PROMPT=0", "CI=1"}

// Env returns base without secrets, without the names in drop, with forced settings and extra (NAME=value) on top.
func Env(base []string, drop []string, extra ...string) []string {
	out := make([]string, 0, len(base)+len(forced)+len(extra))
	for _, kv := range base {
		name, _, _ := strings.Cut(kv, "=")
		if secret(name) || slices.Contains(drop, name) || isForced(name) || overridden(name, extra) {
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
	return upper == "GITHUB_TOKEN" || upper == "GH_TOKEN" || upper == "NPM_TOKEN"
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
