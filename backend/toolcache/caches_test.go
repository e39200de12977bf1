package toolcache

import (
	"slices"
	"testing"
)

// GoCaches rebuilds GOFLAGS and, with the network on, passes GOPROXY from the user's environment: neither may
// carry a credential into the command.
func TestGoCachesLeaveOutCredentials(t *testing.T) {
	t.Parallel()
	cases := []struct{ proxy, flags, wantProxy, wantFlags string }{
		{"https://u:pw@corp.example,https://proxy.example/?token=S|direct", "-mod=mod -ldflags=-X=main.apiKey=S -modcacherw", "direct", "-mod=mod"},
		{"https://corp.example|https://proxy.example/?auth=S,direct", "-tags=netgo", "https://corp.example|direct", "-tags=netgo"},
		{"https://TOKEN@corp.example", "", "off", ""},
		{"https://proxy.example,direct", "-ldflags=-X=main.version=1", "https://proxy.example,direct", "-ldflags=-X=main.version=1"},
	}
	for _, c := range cases {
		vars := map[string]string{"GOPROXY": c.proxy, "GOFLAGS": c.flags, "GOMODCACHE": t.TempDir()}
		env, _ := GoCaches(t.TempDir(), true, func(k string) string { return vars[k] })
		for _, want := range []string{"GOPROXY=" + c.wantProxy, "GOFLAGS=" + c.wantFlags} {
			if !slices.Contains(env, want) {
				t.Errorf("GOPROXY=%q GOFLAGS=%q: want %s in %q", c.proxy, c.flags, want, env)
			}
		}
	}
}
