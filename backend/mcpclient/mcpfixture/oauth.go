package mcpfixture

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// authServer is an OAuth authorization server for the tests: dynamic registration, Client ID Metadata Documents
// when cimd is set, the authorization endpoint (which answers at once, as a user who approves would, by redirecting
// to the client's redirect URI), and a token endpoint that checks PKCE and renews with refresh tokens. The knobs
// make it misbehave the ways a client must refuse.
type AuthServer struct {
	*httptest.Server
	CIMD        bool
	Issuer      string // the issuer its metadata claims ("": its own URL)
	RedirectIss string // the iss it puts in the redirect ("": its issuer)
	State       string // the state it sends back ("": the client's)

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

func NewAuthServer(t testing.TB) *AuthServer {
	a := StartAuthServer()
	t.Cleanup(a.Close)
	return a
}

// StartAuthServer is NewAuthServer for a process of its own (the browser tests' fixture): its caller closes it.
func StartAuthServer() *AuthServer {
	a := &AuthServer{codes: map[string]codeGrant{}, access: map[string]time.Time{}, refresh: map[string]bool{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		iss := a.URL
		if a.Issuer != "" {
			iss = a.Issuer
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"issuer": iss, "authorization_endpoint": a.URL + "/authorize", "token_endpoint": a.URL + "/token",
			"registration_endpoint": a.URL + "/register", "code_challenge_methods_supported": []string{"S256"},
			"response_types_supported": []string{"code"}, "client_id_metadata_document_supported": a.CIMD,
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
		if a.State != "" {
			state = a.State
		}
		if a.RedirectIss != "" {
			iss = a.RedirectIss
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
	return a
}

func tokenError(w http.ResponseWriter, code string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": code})
}

// ExpireAll makes every access token issued so far invalid, as time would.
func (a *AuthServer) ExpireAll() {
	a.mu.Lock()
	defer a.mu.Unlock()
	for k := range a.access {
		a.access[k] = time.Now().Add(-time.Minute)
	}
}

// Counts says how many dynamic registrations, authorizations and refreshes it has served.
func (a *AuthServer) Counts() (registrations, authorizes, refreshes int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.registrations, a.authorizes, a.refreshes
}

// ProtectedServer is an MCP server whose every request needs a token of a: a 401 names its protected-resource
// metadata (RFC 9728), which names a as its authorization server.
func ProtectedServer(t testing.TB, a *AuthServer) string {
	url, stop := StartProtectedServer(a)
	t.Cleanup(stop)
	return url
}

// StartProtectedServer is ProtectedServer for a process of its own: its URL, and what stops it.
func StartProtectedServer(a *AuthServer) (string, func()) {
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
	mcpHandler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	mux.Handle("/mcp", auth.RequireBearerToken(verify, &auth.RequireBearerTokenOptions{ResourceMetadataURL: ts.URL + "/.well-known/oauth-protected-resource"})(mcpHandler))
	mux.Handle("/.well-known/oauth-protected-resource", auth.ProtectedResourceMetadataHandler(&oauthex.ProtectedResourceMetadata{
		Resource: ts.URL + "/mcp", AuthorizationServers: []string{a.URL},
	}))
	return ts.URL + "/mcp", ts.Close
}

// Browser is the user's browser for the tests: it follows the authorization URL and its redirect back to Rooted's
// loopback port, as a user who approves does.
type Browser struct {
	mu     sync.Mutex
	opened []string
}

// Open follows u.
func (b *Browser) Open(ctx context.Context, u string) error {
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

// Count says how many URLs it was given.
func (b *Browser) Count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.opened)
}

// ClientIDs are the client ids its authorization endpoint was asked for, in order.
func (a *AuthServer) ClientIDs() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.clientIDs...)
}
