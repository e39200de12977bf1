package keystore

import (
	"os"
	"path/filepath"
	"testing"
)

func TestDaemonNameOf(t *testing.T) {
	for comm, want := range map[string]string{
		"gnome-keyring-d": "GNOME Keyring (Secret Service)",
		"kwalletd6":       "KWallet (Secret Service)",
		"ksecretd":        "KWallet (Secret Service)",
		"keepassxc":       "KeePassXC (Secret Service)",
		"":                "the system keyring (Secret Service)",
	} {
		if got := daemonNameOf(comm); got != want {
			t.Errorf("daemonNameOf(%q) = %q, want %q", comm, got, want)
		}
	}
}

func TestSessionBusAddress(t *testing.T) {
	run := t.TempDir()
	if got := sessionBus(func(k string) string { return map[string]string{"XDG_RUNTIME_DIR": run}[k] }); got != "" {
		t.Errorf("no socket at $XDG_RUNTIME_DIR/bus gave %q", got)
	}
	if err := os.WriteFile(filepath.Join(run, "bus"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if got := sessionBus(func(k string) string { return map[string]string{"XDG_RUNTIME_DIR": run}[k] }); got != "" {
		t.Errorf("a plain file at $XDG_RUNTIME_DIR/bus gave %q", got)
	}
	env := map[string]string{"DBUS_SESSION_BUS_ADDRESS": "unix:path=/x", "XDG_RUNTIME_DIR": run}
	if got := sessionBus(func(k string) string { return env[k] }); got != "unix:path=/x" {
		t.Errorf("sessionBus = %q, want the environment's address", got)
	}
}
