package app

import (
	"slices"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/netproxy"
)

// The Settings screen turns allow-list mode on by name and lists its hosts; a save that knows only the switch
// keeps the mode (the screen's other fields save that way); a host that is not one is refused with the field
// named; the switch turns the network on and off as before. A host allowed for one conversation is kept for it
// only, and a host that is not one is refused.
func TestSettingsNetworkModes(t *testing.T) {
	svc := openServices(t)
	if _, err := svc.Projects.Open(t.TempDir()); err != nil {
		t.Fatal(err)
	}
	id := cur(t, svc)
	base := ProjectSettingsInput{Allowlist: []string{"go"}}
	save := func(in ProjectSettingsInput) ProjectSettings {
		t.Helper()
		p, err := svc.Settings.Save(id, in)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	in := base
	in.NetworkMode, in.NetworkHosts = "allowlist", []string{"GoProxy.Example.com", "*.pkg.example.org", "goproxy.example.com"}
	p := save(in)
	if p.NetworkMode != "allowlist" || p.Network || !slices.Equal(p.NetworkHosts, []string{"goproxy.example.com", "*.pkg.example.org"}) || !slices.Equal(p.DefaultHosts, netproxy.DefaultHosts) {
		t.Errorf("allow-list mode saved as %+v", p)
	}
	if p.Sandbox.Active && p.Sandbox.Proxy == "" && p.Sandbox.NetNote == "" {
		t.Errorf("the sandbox view says neither where the proxy is nor why there is none: %+v", p.Sandbox)
	}
	if p = save(base); p.NetworkMode != "allowlist" || len(p.NetworkHosts) != 2 {
		t.Errorf("a save with only the switch off lost allow-list mode or its hosts: %+v", p)
	}
	on := base
	on.Network = true
	if p = save(on); p.NetworkMode != "on" || !p.Network {
		t.Errorf("the switch on: %+v", p)
	}
	if p = save(base); p.NetworkMode != "off" || p.Network {
		t.Errorf("the switch off: %+v", p)
	}
	for _, bad := range []ProjectSettingsInput{
		{Allowlist: []string{"go"}, NetworkMode: "allowlist", NetworkHosts: []string{"https://evil.example"}},
		{Allowlist: []string{"go"}, NetworkMode: "allowlist", NetworkHosts: []string{"*"}},
		{Allowlist: []string{"go"}, NetworkMode: "sometimes"},
	} {
		if _, err := svc.Settings.Save(id, bad); err == nil || !strings.Contains(err.Error(), "network_") {
			t.Errorf("Save(%+v) = %v, want an invalid_argument naming the field", bad, err)
		}
	}

	if err := svc.Tools.AllowHost(id, "conv-1", "Pkg.Example.org."); err != nil {
		t.Fatal(err)
	}
	if got := svc.Tools.hosts.of(id, "conv-1"); !slices.Equal(got, []string{"pkg.example.org"}) {
		t.Errorf("hosts of the conversation: %v", got)
	}
	if got := svc.Tools.hosts.of(id, "conv-2"); len(got) != 0 {
		t.Errorf("another conversation got %v", got)
	}
	if err := svc.Tools.AllowHost(id, "conv-1", "*"); err == nil {
		t.Error("every host was allowed at once")
	}
}
