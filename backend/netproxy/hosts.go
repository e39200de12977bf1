// Package netproxy holds what decides where a project's commands may connect in allow-list mode: the default
// hosts (the package registries), how an entry of the user's list is written, and how a host is matched against
// the list. The proxy that applies it is package httpproxy, kept apart so that programs that only decide (the
// CLI) do not link an HTTP stack.
package netproxy

import (
	"fmt"
	"strings"

	"golang.org/x/net/idna"
)

// DefaultHosts are the hosts a project's commands reach in allow-list mode without the user adding any: the
// package registries of Go, npm, PyPI and crates, and nothing that serves arbitrary content (github.com is left
// out: anything can be uploaded there, so a command could send the project to it, or fetch what a
// prompt-injected file told it to; a project whose modules come from it adds it).
var DefaultHosts = []string{
	"proxy.golang.org", "sum.golang.org",
	"registry.npmjs.org",
	"pypi.org", "files.pythonhosted.org",
	"crates.io", "index.crates.io", "static.crates.io",
}

// Normalize checks one entry of a host list and returns it as the proxy compares it: a host name (pypi.org), or
// "*." and a name for every subdomain of it, lower case, no trailing dot; no scheme, port, path or address range.
// A lone "*" (every host) is refused: that is the network on, which is its own setting.
func Normalize(entry string) (string, error) {
	e := strings.TrimSuffix(strings.ToLower(strings.TrimSpace(entry)), ".")
	name, wild := strings.CutPrefix(e, "*.")
	if name == "" || name == "*" {
		return "", fmt.Errorf("%q allows every host: turn the network on instead, or name the hosts (pypi.org, *.pythonhosted.org)", entry)
	}
	ascii, err := idna.Lookup.ToASCII(name)
	if err != nil || strings.ContainsAny(ascii, "*/:@ ") || !strings.Contains(ascii, ".") {
		return "", fmt.Errorf("%q is not a host name (pypi.org, or *.pythonhosted.org for its subdomains)", entry)
	}
	if wild {
		return "*." + ascii, nil
	}
	return ascii, nil
}

// Allowed reports whether host (lower case, no port) is on list: an exact entry, or a "*.parent" entry and host a
// subdomain of parent (not parent itself).
func Allowed(list []string, host string) bool {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	for _, e := range list {
		if parent, ok := strings.CutPrefix(e, "*."); ok {
			if strings.HasSuffix(host, "."+parent) {
				return true
			}
		} else if e == host {
			return true
		}
	}
	return false
}
