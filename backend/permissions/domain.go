package permissions

import (
	"fmt"
	"strings"

	"golang.org/x/net/idna"
)

// WebFetch is the tool whose rules name a domain.
const WebFetch = "web_fetch"

// Network names the rules for the hosts a project's commands reach in allow-list mode (through Rooted's proxy):
// allow adds a host to the list, deny keeps it off even when the list names it. It is no tool the model calls;
// its rules always name a domain.
const Network = "network"

// normalizeDomain checks a web_fetch or network rule: a host name (docs.python.org), or *. and a name for every
// subdomain of it; no command, no port, no scheme. A web_fetch rule without a domain covers the whole tool (deny
// web_fetch, ask web_fetch); allowing every domain at once is refused, as every command at once is for exec_shell.
func normalizeDomain(r Rule) (Rule, error) {
	if r.Tool != WebFetch && r.Tool != Network {
		return r, fmt.Errorf("only web_fetch and network rules name a domain (%s has none)", r.Tool)
	}
	if r.Command != "" {
		return r, fmt.Errorf("a %s rule names a domain, not a command", r.Tool)
	}
	d := strings.TrimSuffix(strings.ToLower(strings.TrimSpace(r.Domain)), ".")
	if d == "" {
		if r.Tool == Network {
			return r, fmt.Errorf("a network rule names a host commands may (or may not) reach (pypi.org, *.pythonhosted.org)")
		}
		if r.Action == Allow {
			return r, fmt.Errorf("an allow rule for web_fetch names a domain (docs.python.org, *.python.org)")
		}
		r.Domain = ""
		return r, nil
	}
	name, wild := strings.CutPrefix(d, "*.")
	ascii, err := idna.Lookup.ToASCII(name)
	if err != nil || !strings.Contains(ascii, ".") && ascii != "localhost" || strings.ContainsAny(ascii, "*/:@ ") {
		return r, fmt.Errorf("%q is not a domain (docs.python.org, or *.python.org for its subdomains)", r.Domain)
	}
	if wild {
		ascii = "*." + ascii
	}
	r.Domain = ascii
	return r, nil
}

// DecideDomain is the decision for fetching from host (lower case, no port): deny over ask over allow among the
// web_fetch rules whose domain covers host (the exact name, or *.parent for a subdomain of parent) and those that
// name the whole tool. With no rule, "" (the first fetch from a domain asks).
func DecideDomain(host string, rules []Rule) Decision {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	var best Decision
	for i := range rules {
		r := &rules[i]
		if r.Tool != WebFetch || r.Domain != "" && !Covers(r.Domain, host) {
			continue
		}
		if best.Action == "" || rank(r.Action) > rank(best.Action) {
			best = Decision{Action: r.Action, Rule: r}
		}
	}
	return best
}

// Covers reports whether a rule's domain names host.
func Covers(domain, host string) bool {
	if parent, ok := strings.CutPrefix(domain, "*."); ok {
		return strings.HasSuffix(host, "."+parent)
	}
	return domain == host
}

// NetworkHosts are the hosts the project's network rules allow and deny, for the proxy of commands in allow-list
// mode ("ask" rules ask nothing there: a refused host is reported after the command, and allowed by a rule).
func NetworkHosts(rules []Rule) (allow, deny []string) {
	for _, r := range rules {
		if r.Tool != Network || r.Domain == "" {
			continue
		}
		switch r.Action {
		case Allow:
			allow = append(allow, r.Domain)
		case Deny:
			deny = append(deny, r.Domain)
		}
	}
	return allow, deny
}
