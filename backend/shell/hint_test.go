package shell

import (
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/sandbox"
)

// A failed command whose output says a file was refused gets a hint naming the paths outside what it may write and
// how to grant a folder; a refusal inside the writable folders, a network failure (NetworkHint's), a success or a
// command outside the sandbox get none.
func TestSandboxHint(t *testing.T) {
	p := sandbox.Policy{Writable: []string{"/home/u/proj", "/tmp/rooted-exec-1"}}
	on := sandbox.Info{Active: true}
	for _, c := range []struct {
		name string
		res  Result
		want []string // in the hint; none: no hint
	}{
		{"touch outside", Result{ExitCode: 1, Sandbox: on, Stderr: "touch: cannot touch '/etc/rooted-test': Permission denied\n"}, []string{"/etc/rooted-test", "Settings"}},
		{"node EACCES", Result{ExitCode: 1, Sandbox: on, Stderr: "Error: EACCES: permission denied, open '/home/u/.config/x.json'\n"}, []string{"/home/u/.config/x.json"}},
		{"read-only", Result{ExitCode: 2, Sandbox: on, Stdout: "mkdir /home/u/other: read-only file system\n"}, []string{"/home/u/other"}},
		{"inside the project", Result{ExitCode: 1, Sandbox: on, Stderr: "open /home/u/proj/a.txt: permission denied\n"}, nil},
		{"network", Result{ExitCode: 1, Sandbox: on, Stderr: "dial tcp 1.2.3.4:443: connect: permission denied\n"}, nil},
		{"succeeded", Result{ExitCode: 0, Sandbox: on, Stderr: "open /etc/x: permission denied\n"}, nil},
		{"no sandbox", Result{ExitCode: 1, Stderr: "open /etc/x: permission denied\n"}, nil},
	} {
		got := SandboxHint(c.res, p)
		if len(c.want) == 0 && got != "" {
			t.Errorf("%s: hint %q", c.name, got)
		}
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: hint %q lacks %q", c.name, got, w)
			}
		}
	}
}

// In allow-list mode the hint names the hosts the proxy refused (even when the command went on and succeeded); a
// failure with nothing refused is not the network's; where allow-list mode fell back to off, the hint says why.
func TestNetworkHintInAllowListMode(t *testing.T) {
	p := sandbox.Policy{Proxied: true}
	proxied := sandbox.Info{Active: true, Proxy: sandbox.ProxyAddr}
	off := sandbox.Info{Active: true, NetworkNote: "allow-list mode needs a network namespace of its own: commands have no network instead"}
	for _, c := range []struct {
		name string
		res  Result
		want []string
	}{
		{"refused", Result{ExitCode: 1, Sandbox: proxied, NetworkRefused: []string{"evil.example.net", "x.example.org"}, Stderr: "Forbidden by Rooted"}, []string{"evil.example.net, x.example.org", "Settings"}},
		{"refused, went on", Result{Sandbox: proxied, NetworkRefused: []string{"evil.example.net"}}, []string{"evil.example.net"}},
		{"nothing refused", Result{ExitCode: 1, Sandbox: proxied, Stderr: "connection refused"}, nil},
		{"fallen back", Result{ExitCode: 1, Sandbox: off, Stderr: "dial tcp: lookup proxy.golang.org: no such host"}, []string{"network namespace"}},
	} {
		got := NetworkHint(c.res, p)
		if len(c.want) == 0 && got != "" {
			t.Errorf("%s: hint %q", c.name, got)
		}
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: hint %q lacks %q", c.name, got, w)
			}
		}
	}
}
