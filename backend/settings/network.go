package settings

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/rooted-dev/rooted/backend/netproxy"
	"github.com/rooted-dev/rooted/backend/permissions"
)

// Network is what a project's commands may reach: nothing (NetworkOff, the default), anything (NetworkOn), or
// only the hosts on the project's list, through Rooted's proxy (NetworkAllowlist). In the settings file it is
// false, true or "allowlist", so files written before the third mode read as they did.
type Network string

// The network modes.
const (
	NetworkOff       Network = ""
	NetworkOn        Network = "on"
	NetworkAllowlist Network = "allowlist"
)

// On reports whether commands reach every host.
func (n Network) On() bool { return n == NetworkOn }

// MarshalJSON writes off and on as the booleans they always were.
func (n Network) MarshalJSON() ([]byte, error) {
	switch n {
	case NetworkOff:
		return []byte("false"), nil
	case NetworkOn:
		return []byte("true"), nil
	}
	return json.Marshal(string(n))
}

// UnmarshalJSON reads false, true, "off", "on" or "allowlist"; anything else is an error, never a guess.
func (n *Network) UnmarshalJSON(b []byte) error {
	var on bool
	if err := json.Unmarshal(b, &on); err == nil {
		*n = NetworkOff
		if on {
			*n = NetworkOn
		}
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("network is false, true or \"allowlist\", not %s", b)
	}
	switch Network(s) {
	case "off", NetworkOff:
		*n = NetworkOff
	case NetworkOn, NetworkAllowlist:
		*n = Network(s)
	default:
		return fmt.Errorf("network is false, true or \"allowlist\", not %q", s)
	}
	return nil
}

// Hosts is the list in force in allow-list mode: netproxy.DefaultHosts, the user's own, and the hosts the
// project's network rules allow (a card's "always"), each in the form the proxy compares (an entry that is not a
// host name is left out).
func (p Project) Hosts() []string {
	out := slices.Clone(netproxy.DefaultHosts)
	allowed, _ := permissions.NetworkHosts(p.Rules)
	for _, h := range append(slices.Clone(p.NetworkHosts), allowed...) {
		if n, err := netproxy.Normalize(h); err == nil && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// DeniedHosts are the hosts the project's network rules deny: refused even where the list names them.
func (p Project) DeniedHosts() []string {
	_, denied := permissions.NetworkHosts(p.Rules)
	return denied
}
