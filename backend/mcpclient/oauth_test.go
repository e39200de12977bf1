package mcpclient

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/mcpclient/mcpfixture"
	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/tool"
)

type oauthFixture struct {
	base, root, grants string
	store              *settings.Store
}

func newOAuthFixture(t *testing.T, serverURL string) *oauthFixture {
	base := t.TempDir()
	f := &oauthFixture{base: base, root: filepath.Join(base, "project"), grants: filepath.Join(base, "state", "mcp-oauth.json")}
	if err := os.MkdirAll(f.root, 0o755); err != nil {
		t.Fatal(err)
	}
	f.store = settings.NewStore(filepath.Join(base, "settings.json"))
	if err := f.store.SetProject(f.root, settings.Project{MCPServers: map[string]settings.MCPServer{"web": {URL: serverURL}}}); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *oauthFixture) manager(t *testing.T, cimd string) (*Manager, *tool.Registry) {
	m := New(Options{Root: f.root, Settings: f.store, DataDir: filepath.Join(f.base, "data"), Grants: NewGrantFile(f.grants), ClientIDMetadataURL: cimd})
	t.Cleanup(func() { _ = m.Close() })
	return m, tool.NewRegistry(nil).WithDynamic(m)
}

func addOK(t *testing.T, reg *tool.Registry) {
	t.Helper()
	out, e := reg.Call(context.Background(), "mcp__web__add", []byte(`{"A": 2, "B": 3}`))
	if e != nil || !strings.Contains(string(out), `"text":"5"`) {
		t.Fatalf("add: %s %v", out, e)
	}
}

// TestOAuthSignIn: a server that needs OAuth is not signed in behind the user's back: its status asks for a sign-in.
// Signing in runs the whole flow (metadata of the resource and of its authorization server, dynamic registration,
// PKCE, the browser redirected to a loopback port), stores the grant in a file only the user reads, outside the
// project, and the server's tools work. A restarted Rooted uses the stored grant without the browser; when the
// access token has expired it is renewed with the refresh token, and the renewal is stored.
func TestOAuthSignIn(t *testing.T) {
	a := mcpfixture.NewAuthServer(t)
	f := newOAuthFixture(t, mcpfixture.ProtectedServer(t, a))
	m, reg := f.manager(t, "")
	if _, e := reg.Call(context.Background(), "mcp__web__add", []byte(`{"A": 2, "B": 3}`)); e == nil || e.Code != tool.CodeServerFailed {
		t.Fatalf("a call before signing in: %v", e)
	}
	if st := m.Status(); st[0].State != "failed" || st[0].Auth != "sign_in" || !strings.Contains(st[0].Error, "sign in") {
		t.Fatalf("status before signing in: %+v", st)
	}
	var b mcpfixture.Browser
	if err := m.SignIn(context.Background(), "web", b.Open); err != nil {
		t.Fatalf("sign in: %v", err)
	}
	addOK(t, reg)
	if st := m.Status(); st[0].State != "connected" || st[0].Auth != "signed_in" {
		t.Errorf("status after signing in: %+v", st)
	}
	info, err := os.Stat(f.grants)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("the grant file: %v %v", info, err)
	}
	stored, _ := os.ReadFile(f.grants)
	if !strings.Contains(string(stored), `"refresh_token": "refresh-`) || !strings.Contains(string(stored), `"client_id": "dyn-1"`) {
		t.Errorf("the grant stored: %s", stored)
	}
	filepath.WalkDir(f.root, func(p string, d os.DirEntry, err error) error {
		if b, _ := os.ReadFile(p); strings.Contains(string(b), "access-") {
			t.Errorf("a token in the project: %s", p)
		}
		return nil
	})
	regs, auths, _ := a.Counts()
	if regs != 1 || auths != 1 || b.Count() != 1 {
		t.Errorf("registrations %d, authorizations %d, browser opened %d times; want 1 each", regs, auths, b.Count())
	}

	// Rooted again: the stored grant serves, no browser.
	_ = m.Close()
	_, reg2 := f.manager(t, "")
	addOK(t, reg2)
	if regs, auths, refreshes := a.Counts(); regs != 1 || auths != 1 || refreshes != 0 {
		t.Errorf("with a stored grant: registrations %d, authorizations %d, refreshes %d", regs, auths, refreshes)
	}

	// Later: the access token has expired; the refresh token renews it without the browser.
	a.ExpireAll()
	g, err := NewGrantFile(f.grants).Grant(protectedURL(t, f))
	if err != nil || g == nil {
		t.Fatalf("grant: %v %v", g, err)
	}
	old := g.Token.AccessToken
	g.Token.Expiry = time.Now().Add(-time.Minute)
	if err := NewGrantFile(f.grants).SaveGrant(protectedURL(t, f), g); err != nil {
		t.Fatal(err)
	}
	_, reg3 := f.manager(t, "")
	addOK(t, reg3)
	if _, auths, refreshes := a.Counts(); auths != 1 || refreshes != 1 {
		t.Errorf("after expiry: authorizations %d, refreshes %d; want 1, 1", auths, refreshes)
	}
	g, _ = NewGrantFile(f.grants).Grant(protectedURL(t, f))
	if g == nil || g.Token.AccessToken == old {
		t.Errorf("the renewed token was not stored: %+v", g)
	}

	// Signed out: the grant is gone, and the server asks again.
	if err := m.SignOut("web"); err != nil {
		t.Fatal(err)
	}
	if g, _ := NewGrantFile(f.grants).Grant(protectedURL(t, f)); g != nil {
		t.Errorf("a grant after signing out: %+v", g)
	}
}

func protectedURL(t *testing.T, f *oauthFixture) string {
	proj, err := f.store.Project(f.root)
	if err != nil {
		t.Fatal(err)
	}
	return proj.MCPServers["web"].URL
}

// TestOAuthRefused: a sign-in whose answers do not add up stores nothing: an authorization server whose metadata
// names another issuer (RFC 8414), a redirect that names another issuer (RFC 9207), a redirect whose state is not
// the one sent (a forged callback).
func TestOAuthRefused(t *testing.T) {
	for _, c := range []struct {
		name   string
		change func(*mcpfixture.AuthServer)
		want   string
		opened bool
	}{
		{"issuer in the metadata", func(a *mcpfixture.AuthServer) { a.Issuer = "https://elsewhere.example" }, "issuer", false},
		{"issuer in the redirect", func(a *mcpfixture.AuthServer) { a.RedirectIss = "https://elsewhere.example" }, "issuer", true},
		{"state", func(a *mcpfixture.AuthServer) { a.State = "forged" }, "state mismatch", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := mcpfixture.NewAuthServer(t)
			c.change(a)
			f := newOAuthFixture(t, mcpfixture.ProtectedServer(t, a))
			m, reg := f.manager(t, "")
			var b mcpfixture.Browser
			err := m.SignIn(context.Background(), "web", b.Open)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("sign in: %v, want an error with %q", err, c.want)
			}
			if (b.Count() > 0) != c.opened {
				t.Errorf("browser opened %d times", b.Count())
			}
			if g, _ := NewGrantFile(f.grants).Grant(protectedURL(t, f)); g != nil {
				t.Errorf("a grant was stored: %+v", g)
			}
			if _, e := reg.Call(context.Background(), "mcp__web__add", []byte(`{"A": 2, "B": 3}`)); e == nil {
				t.Error("a call ran without a sign-in")
			}
		})
	}
}

// TestOAuthClientIDMetadataDocument: an authorization server that takes Client ID Metadata Documents gets Rooted's
// document's URL as the client id, and no dynamic registration happens.
func TestOAuthClientIDMetadataDocument(t *testing.T) {
	a := mcpfixture.NewAuthServer(t)
	a.CIMD = true
	f := newOAuthFixture(t, mcpfixture.ProtectedServer(t, a))
	const doc = "https://rooted.example/oauth/client-metadata.json"
	m, reg := f.manager(t, doc)
	var b mcpfixture.Browser
	if err := m.SignIn(context.Background(), "web", b.Open); err != nil {
		t.Fatalf("sign in: %v", err)
	}
	addOK(t, reg)
	regs, _, _ := a.Counts()
	if ids := a.ClientIDs(); regs != 0 || len(ids) != 1 || ids[0] != doc {
		t.Errorf("registrations %d, client ids %v; want none and %s", regs, ids, doc)
	}
}

// TestOAuthRevoked: a grant the server stops taking mid-session fails the call with the sign-in to do, and the
// status offers it again; no browser opens by itself.
func TestOAuthRevoked(t *testing.T) {
	a := mcpfixture.NewAuthServer(t)
	f := newOAuthFixture(t, mcpfixture.ProtectedServer(t, a))
	m, reg := f.manager(t, "")
	var b mcpfixture.Browser
	if err := m.SignIn(context.Background(), "web", b.Open); err != nil {
		t.Fatalf("sign in: %v", err)
	}
	addOK(t, reg)
	a.ExpireAll() // revoked: the token's own expiry is an hour away, so no refresh is tried
	_, e := reg.Call(context.Background(), "mcp__web__add", []byte(`{"A": 2, "B": 3}`))
	if e == nil || e.Code != tool.CodeServerFailed || !strings.Contains(e.Message, "sign in") {
		t.Fatalf("a call with a revoked grant: %v", e)
	}
	if st := m.Status(); st[0].State != "failed" || st[0].Auth != "sign_in" {
		t.Errorf("status: %+v", st)
	}
	if b.Count() != 1 {
		t.Errorf("the browser opened %d times; want only the sign-in's", b.Count())
	}
}
