package httpproxy

import "github.com/rooted-dev/rooted/backend/shell"

// ForCommands is what tools.Deps.CommandProxy takes in Rooted: a proxy per command, resolving with the system,
// reaching public addresses only.
func ForCommands(allow, deny []string) shell.Proxy { return New(Options{Hosts: allow, Denied: deny}) }
