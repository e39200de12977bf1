package mcpclient

import (
	"encoding/json"
	"strings"
	"testing"

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
