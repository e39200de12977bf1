package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rooted-dev/rooted/backend/cli"
	"github.com/rooted-dev/rooted/backend/mcpclient"
	"github.com/rooted-dev/rooted/backend/mcpclient/mcpfixture"
	"github.com/rooted-dev/rooted/backend/settings"
)

// userAtTerminal is the terminal's stderr and the user reading it: the URL rooted-mcp prints is opened in the
// browser (which follows the redirect back to rooted-mcp's port).
type userAtTerminal struct {
	mu  sync.Mutex
	buf bytes.Buffer
	b   mcpfixture.Browser
}

func (u *userAtTerminal) Write(p []byte) (int, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	for _, line := range strings.Split(string(p), "\n") {
		if url := strings.TrimSpace(line); strings.HasPrefix(url, "http://") {
			go func() { _ = u.b.Open(context.Background(), url) }()
		}
	}
	return u.buf.Write(p)
}

// TestSignInFromTheTerminal: rooted-mcp sign-in prints the authorization URL, and once the user has opened it the
// grant is stored where the window and rooted call find it: rooted call then reaches the server with no sign-in.
func TestSignInFromTheTerminal(t *testing.T) {
	a := mcpfixture.NewAuthServer(t)
	url := mcpfixture.ProtectedServer(t, a)
	base := t.TempDir()
	root := filepath.Join(base, "project")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	store := settings.NewStore(filepath.Join(base, "settings.json"))
	if err := store.SetProject(root, settings.Project{MCPServers: map[string]settings.MCPServer{"docs": {URL: url}}}); err != nil {
		t.Fatal(err)
	}
	grants := filepath.Join(base, "mcp-oauth.json")
	manager := func(r string) *mcpclient.Manager {
		return mcpclient.New(mcpclient.Options{Root: r, Settings: store, Grants: mcpclient.NewGrantFile(grants), DataDir: filepath.Join(base, "data")})
	}
	var stdout bytes.Buffer
	user := &userAtTerminal{}
	code := signIn(context.Background(), cli.IO{Stdout: &stdout, Stderr: user}, []string{"docs", "--root", root}, manager)
	user.mu.Lock()
	printed := user.buf.String()
	user.mu.Unlock()
	if code != cli.ExitOK || !strings.Contains(stdout.String(), "signed in to docs: connected, 1 tools") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout.String(), printed)
	}
	if !strings.Contains(printed, a.URL+"/authorize?") || user.b.Count() != 1 {
		t.Errorf("the URL printed: %s", printed)
	}
	if g, err := mcpclient.NewGrantFile(grants).Grant(url); err != nil || g == nil {
		t.Fatalf("no grant stored: %v", err)
	}
	m := manager(root)
	defer m.Close()
	m.Start()
	m.Wait(context.Background())
	if st := m.Status(); st[0].State != "connected" || st[0].Auth != "signed_in" {
		t.Errorf("a new client with the stored grant: %+v", st)
	}
}

func TestSignInUsage(t *testing.T) {
	none := func(string) *mcpclient.Manager { return mcpclient.New(mcpclient.Options{}) }
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--help"}, cli.ExitOK, "Usage: rooted mcp sign-in NAME"},
		{nil, cli.ExitUsage, "name the server"},
		{[]string{"a", "b"}, cli.ExitUsage, `unexpected argument "b"`},
		{[]string{"a", "--bogus"}, cli.ExitUsage, "flag provided but not defined: -bogus"},
		{[]string{"a"}, cli.ExitToolError, `no server "a"`},
	} {
		var stderr bytes.Buffer
		if code := signIn(context.Background(), cli.IO{Stdout: &bytes.Buffer{}, Stderr: &stderr}, c.args, none); code != c.code || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%v: exit %d, %q", c.args, code, stderr.String())
		}
	}
}
