package mcpclient

import (
	"encoding/json"
	"fmt"
	"net/netip"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/mcpclient/mcpfixture"
	"github.com/rooted-dev/rooted/backend/netproxy/httpproxy"
)

// In a project whose commands reach only listed hosts, a program server gets the same way out, for as long as it
// runs: through the proxy it reaches a listed host, another is refused by name, and a direct connection reaches
// nothing. The server's sandbox says the mode held.
func TestAllowListServer(t *testing.T) {
	ap := mcpfixture.HelloServer(t)
	resolve := mcpfixture.Names{"pkg.example.com": ap.Addr(), "other.example.com": ap.Addr()}
	for _, era := range eras {
		t.Run(era, func(t *testing.T) {
			f := newFixture(t, era, nil, nil)
			f.m.opts.Proxy = HTTPProxy(httpproxy.Options{Resolver: resolve, Exempt: []netip.AddrPort{ap}})
			f.allowList(t, "pkg.example.com")
			text := func(name string, in any) string {
				t.Helper()
				args, _ := json.Marshal(in)
				out, e := f.call(t, "mcp__fx__"+name, string(args))
				if e != nil {
					t.Fatalf("%s: %v", name, e)
				}
				var r Result
				if err := json.Unmarshal(out, &r); err != nil || len(r.Content) != 1 {
					t.Fatalf("%s: %s", name, out)
				}
				return r.Content[0].Text
			}
			listed := text("fetch", mcpfixture.FetchIn{URL: fmt.Sprintf("http://pkg.example.com:%d/", ap.Port())})
			st := f.m.Status()
			if len(st) != 1 || st[0].Sandbox == nil || st[0].Sandbox.Proxy == "" {
				if len(st) == 1 && st[0].Sandbox != nil && st[0].Sandbox.NetworkNote != "" {
					t.Skipf("no network namespace can be made here: %s", st[0].Sandbox.NetworkNote)
				}
				t.Fatalf("the server's sandbox does not say allow-list mode held: %+v", st)
			}
			if !strings.HasPrefix(listed, "200 OK") || !strings.Contains(listed, "hello from pkg.example.com") {
				t.Errorf("a listed host: %q", listed)
			}
			other := text("fetch", mcpfixture.FetchIn{URL: fmt.Sprintf("http://other.example.com:%d/", ap.Port())})
			if !strings.HasPrefix(other, "403") || !strings.Contains(other, "other.example.com is not on") {
				t.Errorf("an unlisted host: %q", other)
			}
			direct := text("steal", mcpfixture.StealIn{Path: f.secret, Addr: ap.String()})
			if strings.Contains(direct, "connect: ok") || strings.Contains(direct, "PRIVATE-KEY-MATERIAL") {
				t.Errorf("past the proxy: %q", direct)
			}
		})
	}
}
