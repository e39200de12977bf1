//go:build linux

package shell_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// /etc is an allow-list: what programs need stays readable in the sandbox (real commands run: git, node, python3,
// go, npm, make, curl with the network on), and everything else is closed whatever its name — a root-only secret
// file nobody listed, fstab's cifs passwords, a system-wide npmrc — even to a command running as root.
func TestSandboxEtcIsAnAllowList(t *testing.T) { // not parallel: newHome sets the environment
	h := newHome(t)
	h.policy.Network = true
	for _, c := range []struct {
		argv []string
		want string
	}{
		{[]string{"git", "init", "-q", "."}, ""},
		{[]string{"git", "-c", "user.name=a", "-c", "user.email=a@b", "commit", "-q", "--allow-empty", "-m", "x"}, ""},
		{[]string{"git", "log", "--format=%s"}, "x"},
		{[]string{"node", "-e", "const os = require('os'); require('tls'); console.log('node ok', os.userInfo().username.length > 0, Intl.DateTimeFormat().resolvedOptions().timeZone.length > 0)"}, "node ok true true"},
		{[]string{"python3", "-c", "import ssl, locale, pwd, os, socket; ssl.create_default_context(); print('python ok', pwd.getpwuid(os.getuid()).pw_name != '', socket.getservbyname('https'))"}, "python ok True 443"},
		{[]string{"go", "version"}, "go version"},
		{[]string{"npm", "--version"}, "."},
		{[]string{"make", "--version"}, "GNU Make"},
		{[]string{"curl", "-sS", "-o", "/dev/null", "-w", "%{http_code}", "https://registry.npmjs.org/-/ping"}, "200"},
	} {
		if _, err := exec.LookPath(c.argv[0]); err != nil {
			t.Errorf("%s is needed for this test: %v", c.argv[0], err)
			continue
		}
		res := h.run(t, c.argv...)
		if res.ExitCode != 0 || !strings.Contains(res.Stdout, c.want) {
			t.Errorf("%v in the sandbox: exit %d\nstdout %s\nstderr %s", c.argv, res.ExitCode, res.Stdout, res.Stderr)
		}
	}
	closed := []string{"/etc/shadow", "/etc/gshadow", "/etc/sudoers", "/etc/fstab", "/etc/environment", "/etc/npmrc", "/etc/pip.conf", "/etc/gitconfig", "/etc/machine-id", "/etc/ssl/private", "/etc/ssh/ssh_host_ed25519_key", "/etc/apt/auth.conf", "/etc/mysql/debian.cnf"}
	if os.Getuid() == 0 {
		// A root-only secret under a name no list foresaw: root outside reads it, a command running as root must not.
		planted := "/etc/rooted-test-" + filepath.Base(t.TempDir()) + ".secret"
		if err := os.WriteFile(planted, []byte("password=ETC-SECRET-PLANTED\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Remove(planted) })
		closed = append(closed, planted)
	}
	for _, p := range closed {
		if _, err := os.Lstat(p); err != nil {
			continue // not on this machine
		}
		res := h.run(t, "python3", "-c", "import sys\ntry:\n  open(sys.argv[1], 'rb').read(); print('READ')\nexcept IsADirectoryError:\n  import os; os.listdir(sys.argv[1]); print('READ')\nexcept OSError as e:\n  print('refused', e.errno)", p)
		if !strings.Contains(res.Stdout, "refused") {
			t.Errorf("%s in the sandbox: %q %q", p, res.Stdout, res.Stderr)
		}
	}
}
