package shell

import (
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/rooted-dev/rooted/backend/sandbox"
)

// offlineFailure matches what programs print when they cannot reach the network: name resolution failing, or a
// connection refused by the sandbox (Landlock answers connect with EACCES).
var offlineFailure = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(EAI_AGAIN|ENOTFOUND|getaddrinfo|could not resolve host|temporary failure in name resolution|name or service not known|network is unreachable|connect EACCES|connect: permission denied|socket EACCES|socket: permission denied|dial tcp[^\n]*permission denied|failed to connect to|unable to access '?https?://|request to https?://\S+ failed|no such host|connection refused|ECONNREFUSED|ETIMEDOUT)`)
}) // compiled on first use: start-up stays short

// NetworkHint explains a failed command that looks like it needed the network, when the policy gave it none; in
// allow-list mode, the hosts the proxy refused and those the user declined, whatever the command's exit.
func NetworkHint(res Result, p sandbox.Policy) string {
	declined := ""
	if len(res.NetworkDeclined) > 0 {
		declined = "the user was asked while the command ran and declined " + strings.Join(res.NetworkDeclined, ", ") + ": do not try to reach it again unless the user asks you to"
	}
	if len(res.NetworkRefused) > 0 {
		if declined != "" {
			declined += "; "
		}
		return declined + "the command tried to reach " + strings.Join(res.NetworkRefused, ", ") + ", which this project's commands may not reach (allow-list mode: only the package registries and the hosts the user listed); if the command needs it, ask the user to allow it (the card in the window, or the hosts commands may reach in Settings for this project), or reach what it needs another way"
	}
	if res.Sandbox.Proxy != "" {
		return declined // allow-list mode refused nothing on its own: any other failure is not the network's
	}
	if res.Sandbox.NetworkNote != "" && p.Proxied && (res.ExitCode != 0 || res.TimedOut) && offlineFailure().MatchString(res.Stderr+"\n"+res.Stdout) {
		return res.Sandbox.NetworkNote
	}
	if p.Network || !res.Sandbox.Active || res.Sandbox.Network || (res.ExitCode == 0 && !res.TimedOut) {
		return ""
	}
	if !offlineFailure().MatchString(res.Stderr) && !offlineFailure().MatchString(res.Stdout) {
		return ""
	}
	return "this project's commands have no network access (the default, so that nothing the agent runs can send the project or your files anywhere); if the command needs it (installing packages, fetching modules), ask the user to turn on \"Commands may use the network\" in Settings for this project"
}

// deniedFailure matches what programs print when the system refused them a file: the sandbox answers a read or
// write outside its lists with EACCES (or EROFS and EPERM from some tools).
var deniedFailure = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(permission denied|operation not permitted|read-only file system|EACCES|EPERM|EROFS)`)
})

// deniedPath finds the absolute paths on the lines that say a file was refused.
var deniedPath = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?:^|[\s'"(])(/[^\s'":)]+)`) })

// SandboxHint explains a failed command that looks like the sandbox refused it a file: the paths it names that lie
// outside what the command may write (or read), and how the user can grant a folder. The sandbox's lists are in the
// result for programs; a model gets them only here, when they explain a failure.
func SandboxHint(res Result, p sandbox.Policy) string {
	if !res.Sandbox.Active || res.ExitCode == 0 && !res.TimedOut {
		return ""
	}
	var outside []string
	for _, out := range []string{res.Stderr, res.Stdout} {
		for line := range strings.SplitSeq(out, "\n") {
			if !deniedFailure().MatchString(line) || offlineFailure().MatchString(line) {
				continue
			}
			for _, m := range deniedPath().FindAllStringSubmatch(line, 4) {
				if q := m[1]; !under(q, p.Writable) && len(outside) < 3 && !slices.Contains(outside, q) {
					outside = append(outside, q)
				}
			}
		}
	}
	if len(outside) == 0 {
		return ""
	}
	return "the sandbox may have refused " + strings.Join(outside, ", ") + ": commands here write only in the project, their temporary folder and the toolchains' caches, and read the system, the toolchains and the project, not the rest of the home folder; if the command needs a folder, ask the user to add it in Settings for this project (readable or writable folders)"
}

// under reports whether path p is one of dirs or inside one.
func under(p string, dirs []string) bool {
	for _, d := range dirs {
		if p == d || strings.HasPrefix(p, strings.TrimSuffix(d, "/")+"/") {
			return true
		}
	}
	return false
}
