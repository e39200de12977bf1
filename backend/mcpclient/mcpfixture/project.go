package mcpfixture

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"testing"

	"github.com/rooted-dev/rooted/backend/settings"
)

// Config is the fixture of era as a project's settings name an MCP server: this test binary, run with Env set to
// era (its TestMain calls RunIfAsked) and its folder readable, which the sandbox would not let it run from
// otherwise, as a user grants a server's own folder.
func Config(t testing.TB, era string) settings.MCPServer {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return settings.MCPServer{Command: self, Env: map[string]string{Env: era}, Readable: []string{filepath.Dir(self)}}
}

// Names answers the test's host names with the addresses it maps them to, as DNS would answer the real hosts: the
// resolver a test gives the allow-list proxy, so that listed and unlisted names reach a HelloServer.
type Names map[string]netip.Addr

// LookupNetIP answers host from n; a name n does not hold is no such host.
func (n Names) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if a, ok := n[host]; ok {
		return []netip.Addr{a}, nil
	}
	return nil, fmt.Errorf("no such host %s", host)
}

// HelloServer starts a web server, closed when t ends, that answers every request with "hello from " and the host
// the request named, so a test sees which name a fetch went to; it returns the server's address.
func HelloServer(t testing.TB) netip.AddrPort {
	web := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprintf(w, "hello from %s", r.Host) }))
	t.Cleanup(web.Close)
	return netip.MustParseAddrPort(web.Listener.Addr().String())
}
