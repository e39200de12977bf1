package cmdenv

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// The entries of /etc a command may read are those on the allow-list, whatever else a machine keeps there.
func TestSandboxEtcEntries(t *testing.T) {
	t.Parallel()
	etc := t.TempDir()
	readable := []string{
		"hosts", "resolv.conf", "nsswitch.conf", "passwd", "group", "ld.so.cache", "ld.so.conf.d", "localtime",
		"timezone", "alternatives", "ca-certificates", "os-release", "mime.types", "java-17-openjdk", "python3.11",
		"python3", "ssl/certs", "ssl/openssl.cnf", "ssh/ssh_config", "pki/tls/certs", "default/locale", "terminfo",
	}
	closed := []string{
		"shadow", "gshadow", "sudoers", "sudoers.d", "fstab", "environment", "npmrc", "pip.conf", "gitconfig",
		"machine-id", "mysql", "letsencrypt", "apt", "containers", "postfix", "gitlab-runner", "kubernetes",
		"netplan", "wpa_supplicant", "ldap.secret", "msmtprc", "rsyncd.secrets", "ssl/private", "ssh/ssh_host_rsa_key",
		"pki/tls/private", "default/grub", "maven", "wgetrc", "security", "NetworkManager", "any-new-secret",
	}
	for _, rel := range append(slices.Clone(readable), closed...) {
		p := filepath.Join(etc, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, nil, 0o644)
	}
	got := EtcEntries(etc)
	for _, rel := range readable {
		if !slices.Contains(got, filepath.Join(etc, filepath.FromSlash(rel))) {
			t.Errorf("/etc/%s is not readable", rel)
		}
	}
	for _, rel := range closed {
		for _, g := range got {
			if p := filepath.Join(etc, filepath.FromSlash(rel)); g == p || len(p) > len(g) && p[:len(g)+1] == g+"/" {
				t.Errorf("/etc/%s is readable (through %s)", rel, g)
			}
		}
	}
}
