package mcpclient

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/tool"
)

// authServer is an OAuth authorization server for the tests: dynamic registration, Client ID Metadata Documents
// when cimd is set, the authorization endpoint (which answers at once, as a user who approves would, by redirecting
// to the client's redirect URI), and a token endpoint that checks PKCE and renews with refresh tokens. The knobs
// make it misbehave the ways a client must refuse.
type authServer struct {
	*httptest.Server
	cimd        bool
	issuer      string // the issuer its metadata claims ("": its own URL)
	redirectIss string // the iss it puts in the redirect ("": its issuer)
	state       string // the state it sends back ("": the client's)

	mu            sync.Mutex
	codes         map[string]codeGrant
	access        map[string]time.Time // access token -> expiry
	refresh       map[string]bool
	registrations int
	authorizes    int
	refreshes     int
	clientIDs     []string
	n             int
}

type codeGrant struct{ challenge, redirect, clientID string }

func newAuthServer(t *testing.T) *authServer {
	a := &authServer{codes: map[string]codeGrant{}, access: map[string]time.Time{}, refresh: map[string]bool{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		iss := a.URL
		if a.issuer != "" {
			iss = a.issuer
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"issuer": iss, "authorization_endpoint": a.URL + "/authorize", "token_endpoint": a.URL + "/token",
			"registration_endpoint": a.URL + "/register", "code_challenge_methods_supported": []string{"S256"},
			"response_types_supported": []string{"code"}, "client_id_metadata_document_supported": a.cimd,
			"authorization_response_iss_parameter_supported": true, "token_endpoint_auth_methods_supported": []string{"none"},
		})
	})
	mux.HandleFunc("POST /register", func(w http.ResponseWriter, r *http.Request) {
		var meta oauthex.ClientRegistrationMetadata
		if err := json.NewDecoder(r.Body).Decode(&meta); err != nil || len(meta.RedirectURIs) == 0 {
			http.Error(w, "bad registration", http.StatusBadRequest)
			return
		}
		a.mu.Lock()
		a.registrations++
		id := fmt.Sprintf("dyn-%d", a.registrations)
		a.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		_ = json.NewEncoder(w).Encode(map[string]any{"client_id": id, "redirect_uris": meta.RedirectURIs, "token_endpoint_auth_method": "none"})
	})
	mux.HandleFunc("GET /authorize", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		redirect, err := url.Parse(q.Get("redirect_uri"))
		if err != nil || redirect.Hostname() != "127.0.0.1" || q.Get("response_type") != "code" || q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" {
			http.Error(w, "bad authorization request", http.StatusBadRequest)
			return
		}
		a.mu.Lock()
		a.authorizes++
		a.n++
		code := fmt.Sprintf("code-%d", a.n)
		a.codes[code] = codeGrant{challenge: q.Get("code_challenge"), redirect: q.Get("redirect_uri"), clientID: q.Get("client_id")}
		a.clientIDs = append(a.clientIDs, q.Get("client_id"))
		a.mu.Unlock()
		state, iss := q.Get("state"), a.URL
		if a.state != "" {
			state = a.state
		}
		if a.redirectIss != "" {
			iss = a.redirectIss
		}
		back := redirect.Query()
		back.Set("code", code)
		back.Set("state", state)
		back.Set("iss", iss)
		redirect.RawQuery = back.Encode()
		http.Redirect(w, r, redirect.String(), http.StatusFound)
	})
	mux.HandleFunc("POST /token", func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		a.mu.Lock()
		defer a.mu.Unlock()
		switch r.PostForm.Get("grant_type") {
		case "authorization_code":
			g, ok := a.codes[r.PostForm.Get("code")]
			delete(a.codes, r.PostForm.Get("code"))
			sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
			if !ok || base64.RawURLEncoding.EncodeToString(sum[:]) != g.challenge || r.PostForm.Get("redirect_uri") != g.redirect {
				tokenError(w, "invalid_grant")
				return
			}
		case "refresh_token":
			if !a.refresh[r.PostForm.Get("refresh_token")] {
				tokenError(w, "invalid_grant")
				return
			}
			a.refreshes++
		default:
			tokenError(w, "unsupported_grant_type")
			return
		}
		a.n++
		at, rt := fmt.Sprintf("access-%d", a.n), fmt.Sprintf("refresh-%d", a.n)
		a.access[at] = time.Now().Add(time.Hour)
		a.refresh[rt] = true
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"access_token": at, "token_type": "Bearer", "refresh_token": rt, "expires_in": 3600})
	})
	a.Server = httptest.NewServer(mux)
	t.Cleanup(a.Close)
	return a
}

func tokenError(w http.ResponseWriter, code string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": code})
}

// expireAll makes every access token issued so far invalid, as time would.
func (a *authServer) expireAll() {
	a.mu.Lock()
	defer a.mu.Unlock()
	for k := range a.access {
		a.access[k] = time.Now().Add(-time.Minute)
	}
}

func (a *authServer) counts() (registrations, authorizes, refreshes int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.registrations, a.authorizes, a.refreshes
}

// protectedServer is an MCP server whose every request needs a token of a: a 401 names its protected-resource
// metadata (RFC 9728), which names a as its authorization server.
func protectedServer(t *testing.T, a *authServer) string {
	srv := mcp.NewServer(&mcp.Implementation{Name: "protected", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "add"}, func(_ context.Context, _ *mcp.CallToolRequest, in struct{ A, B float64 }) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprint(in.A + in.B)}}}, nil, nil
	})
	verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		a.mu.Lock()
		defer a.mu.Unlock()
		exp, ok := a.access[token]
		if !ok {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{Expiration: exp}, nil
	}
	mux := http.NewServeMux()
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	mcpHandler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	mux.Handle("/mcp", auth.RequireBearerToken(verify, &auth.RequireBearerTokenOptions{ResourceMetadataURL: ts.URL + "/.well-known/oauth-protected-resource"})(mcpHandler))
	mux.Handle("/.well-known/oauth-protected-resource", auth.ProtectedResourceMetadataHandler(&oauthex.ProtectedResourceMetadata{
		Resource: ts.URL + "/mcp", AuthorizationServers: []string{a.URL},
	}))
	return ts.URL + "/mcp"
}

// browser is the user's browser for the tests: it follows the authorization URL and its redirect back to Rooted's
// loopback port, as a user who approves does.
type browser struct {
	mu     sync.Mutex
	opened []string
}

func (b *browser) open(ctx context.Context, u string) error {
	b.mu.Lock()
	b.opened = append(b.opened, u)
	b.mu.Unlock()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (b *browser) count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.opened)
}

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
	a := newAuthServer(t)
	f := newOAuthFixture(t, protectedServer(t, a))
	m, reg := f.manager(t, "")
	if _, e := reg.Call(context.Background(), "mcp__web__add", []byte(`{"A": 2, "B": 3}`)); e == nil || e.Code != tool.CodeServerFailed {
		t.Fatalf("a call before signing in: %v", e)
	}
	if st := m.Status(); st[0].State != "failed" || st[0].Auth != "sign_in" || !strings.Contains(st[0].Error, "sign in") {
		t.Fatalf("status before signing in: %+v", st)
	}
	var b browser
	if err := m.SignIn(context.Background(), "web", b.open); err != nil {
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
	regs, auths, _ := a.counts()
	if regs != 1 || auths != 1 || b.count() != 1 {
		t.Errorf("registrations %d, authorizations %d, browser opened %d times; want 1 each", regs, auths, b.count())
	}

	// Rooted again: the stored grant serves, no browser.
	_ = m.Close()
	_, reg2 := f.manager(t, "")
	addOK(t, reg2)
	if regs, auths, refreshes := a.counts(); regs != 1 || auths != 1 || refreshes != 0 {
		t.Errorf("with a stored grant: registrations %d, authorizations %d, refreshes %d", regs, auths, refreshes)
	}

	// Later: the access token has expired; the refresh token renews it without the browser.
	a.expireAll()
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
	if _, auths, refreshes := a.counts(); auths != 1 || refreshes != 1 {
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
		change func(*authServer)
		want   string
		opened bool
	}{
		{"issuer in the metadata", func(a *authServer) { a.issuer = "https://elsewhere.example" }, "issuer", false},
		{"issuer in the redirect", func(a *authServer) { a.redirectIss = "https://elsewhere.example" }, "issuer", true},
		{"state", func(a *authServer) { a.state = "forged" }, "state mismatch", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := newAuthServer(t)
			c.change(a)
			f := newOAuthFixture(t, protectedServer(t, a))
			m, reg := f.manager(t, "")
			var b browser
			err := m.SignIn(context.Background(), "web", b.open)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("sign in: %v, want an error with %q", err, c.want)
			}
			if (b.count() > 0) != c.opened {
				t.Errorf("browser opened %d times", b.count())
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
	a := newAuthServer(t)
	a.cimd = true
	f := newOAuthFixture(t, protectedServer(t, a))
	const doc = "https://rooted.example/oauth/client-metadata.json"
	m, reg := f.manager(t, doc)
	var b browser
	if err := m.SignIn(context.Background(), "web", b.open); err != nil {
		t.Fatalf("sign in: %v", err)
	}
	addOK(t, reg)
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.registrations != 0 || len(a.clientIDs) != 1 || a.clientIDs[0] != doc {
		t.Errorf("registrations %d, client ids %v; want none and %s", a.registrations, a.clientIDs, doc)
	}
}
