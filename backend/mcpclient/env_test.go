package mcpclient

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/oauth2"

	"github.com/rooted-dev/rooted/backend/mcpclient/mcpfixture"
	"github.com/rooted-dev/rooted/backend/sandbox"
	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/tool"
)

// TestEnvByName: a sandboxed server gets the user's variables its entry names (env_vars, or a reference in env) and
// the key store's secret its env names, though their names and values read as credentials; a credential it does
// not name stays out, as it does for commands.
func TestEnvByName(t *testing.T) {
	t.Setenv("GRANTED_TOKEN", "ghp_granted0123456789abcdefghijklmnopqrstu")
	t.Setenv("REFERRED_API_KEY", "sk-referred0123456789abcdefghijklmnop")
	t.Setenv("OTHER_TOKEN", "ghp_other0123456789abcdefghijklmnopqrstuvw")
	f := newFixture(t, "2026", func(c *settings.MCPServer) {
		c.EnvVars = []string{"GRANTED_TOKEN"}
		c.Env["API_KEY"] = "${REFERRED_API_KEY}"
		c.Env["STORED"] = "Bearer ${keyring:fx-token}"
	}, nil)
	f.m.opts.Secrets = mapSecrets{"fx-token": "from-the-key-store"}
	out, e := f.call(t, "mcp__fx__env", `{}`)
	if e != nil {
		t.Fatalf("env: %v (status %+v)", e, f.m.Status())
	}
	var r Result
	if err := json.Unmarshal(out, &r); err != nil || len(r.Content) != 1 {
		t.Fatalf("env returned %s", out)
	}
	lines := strings.Split(r.Content[0].Text, "\n")
	has := func(kv string) bool {
		for _, l := range lines {
			if l == kv {
				return true
			}
		}
		return false
	}
	for _, want := range []string{
		"GRANTED_TOKEN=ghp_granted0123456789abcdefghijklmnopqrstu",
		"API_KEY=sk-referred0123456789abcdefghijklmnop",
		"STORED=Bearer from-the-key-store",
	} {
		if !has(want) {
			t.Errorf("the server did not get %s", want)
		}
	}
	for _, l := range lines {
		if strings.HasPrefix(l, "OTHER_TOKEN=") || strings.HasPrefix(l, "REFERRED_API_KEY=") {
			t.Errorf("the server got %s, which its entry does not name", l)
		}
	}
}

// A variable or secret the entry names that is not there fails the start with its name, not a server given "".
func TestEnvByNameMissing(t *testing.T) {
	for _, c := range []struct {
		name   string
		change func(*settings.MCPServer)
		want   string
	}{
		{"env_vars", func(c *settings.MCPServer) { c.EnvVars = []string{"ROOTED_TEST_UNSET_VAR"} }, "env_vars names ROOTED_TEST_UNSET_VAR, which is not set"},
		{"reference", func(c *settings.MCPServer) { c.Env["X"] = "${ROOTED_TEST_UNSET_VAR}" }, "ROOTED_TEST_UNSET_VAR is not set"},
		{"secret", func(c *settings.MCPServer) { c.Env["X"] = "${keyring:absent}" }, "no secret of that name is stored"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t, "2026", c.change, nil)
			f.m.opts.Secrets = mapSecrets{}
			_, e := f.call(t, "mcp__fx__env", `{}`)
			if e == nil || e.Code != tool.CodeServerFailed {
				t.Fatalf("call: %v", e)
			}
			if st := f.m.Status(); st[0].State != "failed" || !strings.Contains(st[0].Error, c.want) {
				t.Errorf("status %+v, want failed with %q", st, c.want)
			}
		})
	}
}

// TestServerCannotReadTheStoredSecrets: the files of secrets and OAuth grants, where Rooted keeps them in the
// user's home, are out of a sandboxed server's reach, as ~/.ssh is; the same server started plainly reads them, so
// the test fails without the sandbox.
func TestServerCannotReadTheStoredSecrets(t *testing.T) {
	if !sandbox.Probe(sandbox.Policy{}).Active {
		t.Skip("no sandbox on this kernel")
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_DATA_HOME", "")
	t.Setenv("XDG_CONFIG_HOME", "")
	dir, err := DefaultStateDir()
	if err != nil || !strings.HasPrefix(dir, home) {
		t.Fatalf("state dir %q %v", dir, err)
	}
	grants, secrets := filepath.Join(dir, "mcp-oauth.json"), filepath.Join(dir, "mcp-secrets.json")
	if err := NewGrantFile(grants).SaveGrant("https://mcp.example/mcp", &Grant{ClientID: "c", Token: &oauth2.Token{AccessToken: "GRANT-ACCESS-TOKEN"}}); err != nil {
		t.Fatal(err)
	}
	if err := NewSecretFile(secrets).SetSecret("s", "STORED-SECRET-VALUE"); err != nil {
		t.Fatal(err)
	}
	plain := func(sandbox.Policy) sandbox.Info { return sandbox.Info{} }
	for _, sandboxed := range []bool{true, false} {
		var probe func(sandbox.Policy) sandbox.Info
		if !sandboxed {
			probe = plain
		}
		f := newFixture(t, "2026", nil, probe)
		for path, secret := range map[string]string{grants: "GRANT-ACCESS-TOKEN", secrets: "STORED-SECRET-VALUE"} {
			args, _ := json.Marshal(mcpfixture.StealIn{Path: path, Addr: "127.0.0.1:1"})
			out, e := f.call(t, "mcp__fx__steal", string(args))
			if e != nil {
				t.Fatalf("steal: %v", e)
			}
			if got := strings.Contains(string(out), secret); got == sandboxed {
				t.Errorf("sandboxed %v: read %s: %v (%s)", sandboxed, filepath.Base(path), got, out)
			}
		}
	}
}
