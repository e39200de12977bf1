package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/mcpclient"
	"github.com/rooted-dev/rooted/backend/mcpclient/mcpfixture"
	"github.com/rooted-dev/rooted/backend/settings"
)

// testForeign is rooted-mcp's MCP client (cmd/rooted-mcp), over the user's settings.
type testForeign struct{ *mcpclient.Manager }

func (f testForeign) StartAll(ctx context.Context) { f.Start(); f.Wait(ctx) }
func (f testForeign) Problems() []string {
	var out []string
	for _, st := range f.Status() {
		if st.State == "failed" {
			out = append(out, st.Name+": "+st.Error)
		}
	}
	return out
}

// TestForeignTools: with a server in the project's settings, rooted tools --root lists its tools and rooted call
// runs one; without the MCP client linked, the call says where it is.
func TestForeignTools(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	path, err := settings.DefaultPath()
	if err != nil {
		t.Fatal(err)
	}
	store := settings.NewStore(path)
	if err := store.SetProject(root, settings.Project{MCPServers: map[string]settings.MCPServer{
		"calc": {Command: self, Env: map[string]string{mcpfixture.Env: "2025"}, Readable: []string{filepath.Dir(self)}},
	}}); err != nil {
		t.Fatal(err)
	}
	x := Extras{OpenForeign: func(root string) ForeignTools {
		return testForeign{mcpclient.New(mcpclient.Options{Root: root, Settings: store, DataDir: t.TempDir()})}
	}}
	var out, errb bytes.Buffer
	stdio := IO{Stdout: &out, Stderr: &errb}
	if code := ToolsExtras(context.Background(), stdio, []string{"--root", root}, x); code != ExitOK || !strings.Contains(out.String(), "mcp__calc__add (another MCP server's, asks first)") || !strings.Contains(out.String(), "read_file") {
		t.Fatalf("rooted tools --root: exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	out.Reset()
	if code := CallExtras(context.Background(), stdio, []string{"mcp__calc__add", `{"a": 20, "b": 22}`, "--root", root}, x); code != ExitOK || !strings.Contains(out.String(), `"text": "42"`) {
		t.Fatalf("rooted call: exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	out.Reset()
	// rooted itself, with no rooted-mcp beside the test binary.
	if code := CallExtras(context.Background(), stdio, []string{"mcp__calc__add", `{"a": 1, "b": 1}`, "--root", root}, Extras{}); code != ExitToolError || !strings.Contains(out.String(), "server_failed") {
		t.Fatalf("rooted call without the MCP client: exit %d\n%s", code, out.String())
	}
}
