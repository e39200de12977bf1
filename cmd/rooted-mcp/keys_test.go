package main

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/cli"
	"github.com/rooted-dev/rooted/backend/keystore/keyringtest"
	"github.com/rooted-dev/rooted/backend/mcpclient"
	"github.com/rooted-dev/rooted/backend/mcpclient/mcpfixture"
	"github.com/rooted-dev/rooted/backend/sandbox"
	"github.com/rooted-dev/rooted/backend/settings"
)

// The test binary doubles as the sandbox helper and as the MCP server a project's settings name. Secrets the tests
// store go to their own keyring or to files, never to the keyring of the session the tests run in.
func TestMain(m *testing.M) {
	sandbox.RunHelperIfAsked()
	mcpfixture.RunIfAsked()
	os.Setenv("DBUS_SESSION_BUS_ADDRESS", "disabled:")
	os.Exit(m.Run())
}

// A secret stored as Settings stores it (mcpclient.OpenUserKeys, into the keyring) is the one rooted call hands
// the server whose entry names it as ${keyring:NAME}; no file of Rooted's or of the project holds it.
func TestCallUsesTheSecretSettingsStored(t *testing.T) {
	for _, c := range []struct {
		name    string
		keyring bool
	}{{"keyring", true}, {"file", false}} {
		t.Run(c.name, func(t *testing.T) {
			bus := "disabled:"
			if c.keyring {
				bus = keyringtest.SecretService(t)
			}
			config, data, root := t.TempDir(), t.TempDir(), t.TempDir()
			t.Setenv("XDG_CONFIG_HOME", config)
			t.Setenv("XDG_DATA_HOME", data)
			t.Setenv("XDG_CACHE_HOME", t.TempDir())
			t.Setenv("DBUS_SESSION_BUS_ADDRESS", bus)
			k, err := mcpclient.OpenUserKeys(context.Background())
			if err != nil || k.Where.Keyring != c.keyring {
				t.Fatalf("keys: %+v, %v", k.Where, err)
			}
			if err := k.Secrets.SetSecret("calc-token", "tok-from-settings"); err != nil {
				t.Fatal(err)
			}
			self, err := os.Executable()
			if err != nil {
				t.Fatal(err)
			}
			path, err := settings.DefaultPath()
			if err != nil {
				t.Fatal(err)
			}
			entry := settings.MCPServer{Command: self, Env: map[string]string{mcpfixture.Env: "2026", "CALC_TOKEN": "${keyring:calc-token}"}, Readable: []string{filepath.Dir(self)}}
			if err := settings.NewStore(path).SetProject(root, settings.Project{MCPServers: map[string]settings.MCPServer{"calc": entry}}); err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			code := cli.CallExtras(context.Background(), cli.IO{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr},
				[]string{"mcp__calc__env", "--root", root, "{}"}, cli.Extras{OpenForeign: client{}.openForeign})
			if code != cli.ExitOK || !strings.Contains(stdout.String(), "CALC_TOKEN=tok-from-settings") {
				t.Fatalf("rooted call: exit %d\n%s\n%s", code, stdout.String(), stderr.String())
			}
			for _, dir := range []string{config, root} {
				filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
					if err == nil && !d.IsDir() {
						if b, _ := os.ReadFile(p); bytes.Contains(b, []byte("tok-from-settings")) {
							t.Errorf("%s holds the secret", p)
						}
					}
					return nil
				})
			}
			_, err = os.Stat(filepath.Join(data, "rooted", mcpclient.SecretsFile))
			if c.keyring != os.IsNotExist(err) {
				t.Errorf("the secrets file with keyring=%v: %v", c.keyring, err)
			}
		})
	}
}
