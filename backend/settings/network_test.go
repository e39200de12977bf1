package settings

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/permissions"
)

// The network setting reads the booleans files have always held and "allowlist", writes off and on back as
// booleans, and refuses anything else rather than guess; allow-list mode makes a proxied policy.
func TestNetworkSetting(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Network
		out  string
		err  bool
	}{
		{`false`, NetworkOff, `false`, false},
		{`true`, NetworkOn, `true`, false},
		{`"off"`, NetworkOff, `false`, false},
		{`"on"`, NetworkOn, `true`, false},
		{`"allowlist"`, NetworkAllowlist, `"allowlist"`, false},
		{`"everything"`, "", "", true},
		{`1`, "", "", true},
	} {
		var n Network
		err := json.Unmarshal([]byte(tc.in), &n)
		if tc.err {
			if err == nil {
				t.Errorf("%s read as %q", tc.in, n)
			}
			continue
		}
		b, _ := json.Marshal(n)
		if err != nil || n != tc.want || string(b) != tc.out {
			t.Errorf("%s: read %q (%v), written %s", tc.in, n, err, b)
		}
	}
	s := NewStore(filepath.Join(t.TempDir(), "settings.json"))
	if err := s.SetProject("/a", Project{Network: NetworkAllowlist, NetworkHosts: []string{"Example.ORG", "https://bad", "*.example.net"}}); err != nil {
		t.Fatal(err)
	}
	p, err := s.Project("/a")
	if err != nil || p.Network != NetworkAllowlist {
		t.Fatalf("read back %+v, %v", p, err)
	}
	pol := p.Policy("/a", "/tmp/x")
	if !pol.Proxied || pol.Network {
		t.Errorf("allow-list mode's policy: %+v", pol)
	}
	hosts := p.Hosts()
	if !slices.Contains(hosts, "proxy.golang.org") || !slices.Contains(hosts, "example.org") || !slices.Contains(hosts, "*.example.net") ||
		slices.ContainsFunc(hosts, func(h string) bool { return strings.Contains(h, "/") }) {
		t.Errorf("hosts: %v", hosts)
	}
	withRules := Project{NetworkHosts: []string{"listed.example.org"}, Rules: []permissions.Rule{
		{Action: permissions.Allow, Tool: permissions.Network, Domain: "card.example.org"},
		{Action: permissions.Deny, Tool: permissions.Network, Domain: "listed.example.org"},
	}}
	if h := withRules.Hosts(); !slices.Contains(h, "card.example.org") || !slices.Contains(h, "listed.example.org") {
		t.Errorf("hosts with rules: %v", h)
	}
	if d := withRules.DeniedHosts(); !slices.Equal(d, []string{"listed.example.org"}) {
		t.Errorf("denied hosts: %v", d)
	}
	if pol := (Project{Network: NetworkOn}).Policy("/a", "/tmp/x"); !pol.Network || pol.Proxied {
		t.Errorf("network on: %+v", pol)
	}
}
