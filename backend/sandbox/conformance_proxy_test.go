//go:build !windows

package sandbox_test

import (
	"context"
	"encoding/pem"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/cmdenv"
	"github.com/rooted-dev/rooted/backend/netproxy/httpproxy"
	"github.com/rooted-dev/rooted/backend/sandbox"
	"github.com/rooted-dev/rooted/backend/shell"
	"github.com/rooted-dev/rooted/backend/testtree"
	"github.com/rooted-dev/rooted/backend/webfetch/webfetchtest"
)

// fetchScript fetches each URL through the proxy the environment names, trusting the fixture's certificate, and
// prints the body or the error; then tries a direct connection to each address given with -d.
const fetchScript = `import socket, ssl, sys, urllib.request
ctx = ssl.create_default_context(cafile=sys.argv[1])
print('STARTED', flush=True)
args = sys.argv[2:]
while args:
    a = args.pop(0)
    if a == '-d':
        host, port = args.pop(0).rsplit(':', 1)
        try:
            s = socket.create_connection((host, int(port)), 5)
            print('DIRECT', host, s.recv(16).decode().strip(), flush=True)
        except Exception as e:
            print('DIRECT-FAILED', host, e, flush=True)
        continue
    try:
        print('GOT', urllib.request.urlopen(a, context=ctx, timeout=10).read().decode().strip(), flush=True)
    except Exception as e:
        print('FAILED', a, e, flush=True)
`

// allowList is the table's rows for allow-list mode: a listed host is reached through the proxy; an unlisted
// one, a listed name that resolves to loopback, a direct connection to the machine's loopback and to an address
// outside all fail, with the refused hosts named in the output and the result; secrets stay unreadable. Where the
// backend can make no network namespace, the mode is off and the result says why.
func allowList(t *testing.T, m mode) {
	python := systemProgram(t, "python3")
	web := webfetchtest.New(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("FROM " + r.Host)) }),
		"listed.example.com", "unlisted.example.com")
	inward := testtree.Listener(t, "INWARD\n") // the machine's own loopback, which the command must not reach
	web.Resolver["inward.example.com"] = []netip.Addr{inward.AddrPort().Addr()}

	w := newWorld(t, false)
	p := w.policy
	p.Proxied = true
	info := m.info
	probe := m.backend.Probe(p)
	info.Network, info.Proxy, info.NetworkNote = probe.Network, probe.Proxy, probe.NetworkNote

	ca := filepath.Join(w.project, "ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: web.Sites["listed.example.com"].Server.Certificate().Raw}), 0o644); err != nil {
		t.Fatal(err)
	}
	proxy := httpproxy.New(httpproxy.Options{Hosts: []string{"listed.example.com", "*.inward.example.com", "inward.example.com"}, Resolver: web.Resolver, Exempt: web.Options().Exempt})
	inwardURL := "https://inward.example.com:" + strconv.Itoa(inward.Port) + "/"
	argv := []string{
		python, "-c", fetchScript, ca, web.Sites["listed.example.com"].URL("/ok"), web.Sites["unlisted.example.com"].URL("/no"), inwardURL,
		"-d", inward.String(), "-d", "1.1.1.1:443", "-d", "1.1.1.1:" + strconv.Itoa(sandbox.ProxyPort),
	}
	res, err := shell.Run(context.Background(), shell.Spec{
		Argv: argv, Dir: w.project, Timeout: time.Minute, Policy: p, Sandbox: info, Backend: m.backend, Proxy: proxy,
		Env: cmdenv.Env(os.Environ(), nil, append([]string{"HOME=" + w.home, "TMPDIR=" + w.tmp}, shell.ProxyEnv(sandbox.ProxyAddr)...)...),
	})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Stdout, "STARTED") {
		t.Fatalf("python could not run in the sandbox: %+v", res)
	}
	for _, leak := range []string{"FROM unlisted", "INWARD", "DIRECT inward", "DIRECT 1.1.1.1"} {
		if strings.Contains(res.Stdout, leak) {
			t.Errorf("allow-list mode reached what it must not (%q): %s", leak, res.Stdout)
		}
	}
	if res.Sandbox.Network {
		t.Errorf("allow-list mode reports the network on: %+v", res.Sandbox)
	}
	if info.Proxy == "" {
		// No network namespace here: the mode falls back to off, and says why.
		if res.Sandbox.NetworkNote == "" || strings.Contains(res.Stdout, "GOT") {
			t.Errorf("allow-list mode without a network namespace: want no network and a note, got %+v", res)
		}
		t.Logf("%s: no network namespace, allow-list mode is off: %s", m.name, res.Sandbox.NetworkNote)
		return
	}
	if res.Sandbox.Proxy != sandbox.ProxyAddr {
		t.Errorf("the result does not say where the proxy was: %+v", res.Sandbox)
	}
	if !strings.Contains(res.Stdout, "GOT FROM listed.example.com") {
		t.Errorf("a listed host was not reached through the proxy: %+v", res)
	}
	if !strings.Contains(res.Stdout, "unlisted.example.com is not on this project's list") {
		t.Errorf("the refusal does not name the unlisted host: %s", res.Stdout)
	}
	if want := []string{"unlisted.example.com", "inward.example.com"}; !slices.Equal(res.NetworkRefused, want) {
		t.Errorf("refused hosts: %v, want %v", res.NetworkRefused, want)
	}
	// The last goes to the proxy's port, which Landlock lets the command connect to: only the namespace stops it.
	if strings.Count(res.Stdout, "DIRECT-FAILED") != 3 {
		t.Errorf("a direct connection did not fail: %s", res.Stdout)
	}
	// The credential table holds in this mode as in the others.
	for _, rel := range homeSecrets {
		res, err := shell.Run(context.Background(), shell.Spec{
			Argv: []string{"cat", filepath.Join(w.home, rel)}, Dir: w.project, Timeout: time.Minute, Policy: p, Sandbox: info,
			Backend: m.backend, Proxy: proxy, Env: cmdenv.Env(os.Environ(), nil, "HOME="+w.home),
		})
		if err != nil || strings.Contains(res.Stdout, "SECRET") {
			t.Errorf("~/%s was read in allow-list mode: %q, %v", rel, res.Stdout, err)
		}
	}
}

// Where the namespaces cannot be had now, allow-list mode's last fallback is the network off, and the result says
// why; there is nothing weaker than that.
func TestAllowListFallsBackToOff(t *testing.T) {
	b := sandbox.Platform()
	if !b.Probe(sandbox.Policy{}).Active {
		t.Skip("no sandbox on this system: TestNoneSaysSo applies")
	}
	info := sandbox.Info{Active: true, Kind: "landlock", Processes: sandbox.ProcessesSubreaper, Proxy: sandbox.ProxyAddr}
	off, ok := b.Weaker(info)
	if !ok || off.Proxy != "" || off.Network || !strings.Contains(off.NetworkNote, "no network") {
		t.Fatalf("Weaker(allow-list) = %+v, %v", off, ok)
	}
	if _, ok := b.Weaker(off); ok {
		t.Error("something weaker than the network off was offered")
	}
}
