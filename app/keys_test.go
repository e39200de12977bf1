package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/keystore"
	"github.com/rooted-dev/rooted/backend/keystore/keyringtest"
	"github.com/rooted-dev/rooted/backend/llm"
)

// startWith starts the services with XDG_CONFIG_HOME at config and the session bus at bus.
func startWith(t *testing.T, config, bus string) *services {
	t.Helper()
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", config)
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", bus)
	svc, err := newServices(Options{RecentFile: filepath.Join(t.TempDir(), "recent.json")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.workspaces.CloseAll)
	return svc
}

// On the first start with a keyring, the key an earlier version wrote into providers.json moves into it: the
// file no longer holds it, the provider still has it, and Settings is told the keyring's name.
func TestKeysMoveIntoTheKeyringAtStart(t *testing.T) {
	addr := keyringtest.SecretService(t)
	config := t.TempDir()
	path := filepath.Join(config, "rooted", "providers.json")
	os.MkdirAll(filepath.Dir(path), 0o700)
	legacy := `{"providers": [{"id": "claude", "name": "Claude", "kind": "anthropic", "base_url": "https://api.anthropic.com/v1", "api_key": "sk-ant-legacy"}], "active": "claude"}`
	if err := os.WriteFile(path, []byte(legacy), 0o600); err != nil {
		t.Fatal(err)
	}
	svc := startWith(t, config, addr)
	if ks := svc.Agent.KeyStorage(); ks != (KeyStorage{Keyring: true, Name: "GNOME Keyring (Secret Service)"}) {
		t.Fatalf("KeyStorage = %+v", ks)
	}
	if b, _ := os.ReadFile(path); strings.Contains(string(b), "sk-ant-legacy") {
		t.Fatalf("providers.json still holds the key:\n%s", b)
	}
	v, err := svc.Agent.Providers()
	if err != nil || len(v.Providers) != 1 || !v.Providers[0].HasKey || v.Providers[0].KeySource != "settings" {
		t.Fatalf("Providers = %+v, %v", v, err)
	}
	ring, err := keystore.DialSecretService(context.Background(), addr)
	if err != nil {
		t.Fatal(err)
	}
	defer ring.Close()
	if k, err := ring.Get(context.Background(), llm.NewStore(path, nil).KeyService(), "claude"); err != nil || k != "sk-ant-legacy" {
		t.Fatalf("the keyring holds %q, %v", k, err)
	}
}

// Without a session bus, keys are in keys.json and Settings is told the file and why; the providers file
// holds none.
func TestKeysInTheFileWithoutAKeyring(t *testing.T) {
	config := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir()) // no bus socket there either
	svc := startWith(t, config, "")
	ks := svc.Agent.KeyStorage()
	keys := filepath.Join(config, "rooted", "keys.json")
	if ks.Keyring || ks.Name != keystore.Shown(keys) || ks.Reason != "no session bus: DBUS_SESSION_BUS_ADDRESS is not set" || ks.Problem != "" {
		t.Fatalf("KeyStorage = %+v", ks)
	}
	if _, err := svc.Agent.SaveProvider(ProviderInput{ID: "or", Kind: "openai-compatible", BaseURL: "https://openrouter.ai/api/v1", APIKey: "sk-or-file"}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(config, "rooted", "providers.json")); strings.Contains(string(b), "sk-or-file") {
		t.Fatal("providers.json holds the key")
	}
	if b, _ := os.ReadFile(keys); !strings.Contains(string(b), "sk-or-file") {
		t.Fatal("keys.json does not hold the key")
	}
}
