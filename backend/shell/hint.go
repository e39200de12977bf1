package shell

import (
	"regexp"
	"sync"
)

// offlineFailure matches what programs print when they cannot reach the network: name resolution failing, or a
// connection refused by the sandbox (Landlock answers connect with EACCES).
var offlineFailure = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(EAI_AGAIN|ENOTFOUND|getaddrinfo|could not resolve host|temporary failure in name resolution|name or service not known|network is unreachable|connect EACCES|connect: permission denied|socket EACCES|socket: permission denied|dial tcp[^\n]*permission denied|failed to connect to|unable to access '?https?://|request to https?://\S+ failed|no such host|connection refused|ECONNREFUSED|ETIMEDOUT)`)
}) // compiled on first use: start-up stays short

// NetworkHint explains a failed command that looks like it needed the network, when the policy gave it none.
func NetworkHint(res Result, p Policy) string {
	if p.Network || !res.Sandbox.Active || res.Sandbox.Network || (res.ExitCode == 0 && !res.TimedOut) {
		return ""
	}
	if !offlineFailure().MatchString(res.Stderr) && !offlineFailure().MatchString(res.Stdout) {
		return ""
	}
	return "this project's commands have no network access (the default, so that nothing the agent runs can send the project or your files anywhere); if the command needs it (installing packages, fetching modules), ask the user to turn on \"Commands may use the network\" in Settings for this project"
}
