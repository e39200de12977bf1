package app

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/keystore"
	"github.com/rooted-dev/rooted/backend/keystore/keyringtest"
	"github.com/rooted-dev/rooted/backend/llm"
	"github.com/rooted-dev/rooted/backend/mcpclient"
	"github.com/rooted-dev/rooted/backend/mcpclient/mcpfixture"
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
	ring := keyringtest.Dial(t, addr)
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

// With a keyring, the MCP servers' secrets and sign-ins are kept in it as the API keys are: a secret an earlier
// version left in the secrets file moves there at start, one stored from Settings goes there and reaches the
// server whose entry names it, a sign-in from Settings stores its grant there, Settings is told the keyring's name,
// and no file of Rooted's nor of the project holds a secret or a token.
func TestMCPSecretsAndSignInsInTheKeyring(t *testing.T) {
	ctx := context.Background()
	addr := keyringtest.SecretService(t)
	config, data := t.TempDir(), t.TempDir()
	t.Setenv("XDG_DATA_HOME", data)
	state := filepath.Join(data, "rooted")
	if err := mcpclient.NewSecretFile(filepath.Join(state, mcpclient.SecretsFile)).SetSecret("old-token", "tok-legacy"); err != nil {
		t.Fatal(err)
	}
	svc := startWith(t, config, addr)
	var browser mcpfixture.Browser
	svc.MCPServers.open = browser.Open
	if ks, err := svc.MCPServers.SecretStorage(); err != nil || ks != (KeyStorage{Keyring: true, Name: "GNOME Keyring (Secret Service)"}) {
		t.Fatalf("SecretStorage = %+v, %v", ks, err)
	}
	if names, err := svc.MCPServers.SetSecret("calc-token", "tok-from-settings"); err != nil || strings.Join(names, " ") != "calc-token old-token" {
		t.Fatalf("SetSecret: %v %v", names, err)
	}
	root := t.TempDir()
	proj, err := svc.Projects.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	auth := mcpfixture.NewAuthServer(t)
	url := mcpfixture.ProtectedServer(t, auth)
	t.Cleanup(svc.workspaces.CloseAll) // the server's connection ends before the fixture's HTTP server closes
	cfg := fmt.Sprintf(`{"calc": {"command": %q, "env": {%q: "2026", "CALC_TOKEN": "${keyring:calc-token}", "OLD_TOKEN": "${keyring:old-token}"}, "readable": [%q]}, "docs": {"url": %q}}`,
		self, mcpfixture.Env, filepath.Dir(self), url)
	if _, err := svc.MCPServers.SaveConfig(proj.ID, cfg); err != nil {
		t.Fatal(err)
	}
	out, err := svc.Tools.Call(proj.ID, "mcp__calc__env", `{}`)
	if err != nil || !strings.Contains(out, "CALC_TOKEN=tok-from-settings") || !strings.Contains(out, "OLD_TOKEN=tok-legacy") {
		t.Fatalf("the server's environment: %s %v", out, err)
	}
	status, err := svc.MCPServers.SignIn(proj.ID, "docs")
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range status {
		if st.Name == "docs" && (st.State != "connected" || st.Auth != "signed_in") {
			t.Errorf("docs after the sign-in: %+v", st)
		}
	}
	ring := keyringtest.Dial(t, addr)
	grant, err := ring.Get(ctx, "rooted mcp oauth "+filepath.Join(state, mcpclient.GrantsFile), url)
	if err != nil {
		t.Fatalf("no grant in the keyring: %v", err)
	}
	var g mcpclient.Grant
	if err := json.Unmarshal([]byte(grant), &g); err != nil || g.Token == nil || g.Token.AccessToken == "" {
		t.Fatalf("the keyring's grant: %v", err)
	}
	if v, err := ring.Get(ctx, "rooted mcp secrets "+filepath.Join(state, mcpclient.SecretsFile), "old-token"); err != nil || v != "tok-legacy" {
		t.Errorf("the moved secret in the keyring: %q, %v", v, err)
	}
	for _, dir := range []string{config, data, root} {
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			b, _ := os.ReadFile(p)
			for _, v := range []string{"tok-from-settings", "tok-legacy", g.Token.AccessToken} {
				if strings.Contains(string(b), v) {
					t.Errorf("%s holds a secret or token (%s)", p, v)
				}
			}
			return nil
		})
	}
}
