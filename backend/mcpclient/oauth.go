package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"html"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
)

// SignInTimeout bounds a sign-in from the browser opening to the authorization server's redirect back.
const SignInTimeout = 5 * time.Minute

// ErrSignIn says an HTTP server asked for OAuth authorization and no grant of the user's answers it: the user is
// to sign in (Manager.SignIn), which opens the browser. A connect never opens it unasked.
var ErrSignIn = errors.New("it needs you to sign in")

// Grant is what an authorization leaves to keep a server's access: the client the authorization server knows Rooted
// as, where its tokens come from, and the tokens. The refresh token renews the access token without the browser.
type Grant struct {
	ClientID     string        `json:"client_id"`
	ClientSecret string        `json:"client_secret,omitempty"`
	AuthURL      string        `json:"auth_url"`
	TokenURL     string        `json:"token_url"`
	AuthStyle    int           `json:"auth_style,omitempty"`
	Scopes       []string      `json:"scopes,omitempty"`
	Token        *oauth2.Token `json:"token"`
}

func (g *Grant) config() *oauth2.Config {
	return &oauth2.Config{
		ClientID: g.ClientID, ClientSecret: g.ClientSecret, Scopes: g.Scopes,
		Endpoint: oauth2.Endpoint{AuthURL: g.AuthURL, TokenURL: g.TokenURL, AuthStyle: oauth2.AuthStyle(g.AuthStyle)},
	}
}

// Grants keep OAuth grants by the server's URL, outside every project.
type Grants interface {
	Grant(url string) (*Grant, error) // nil, nil when there is none
	SaveGrant(url string, g *Grant) error
	DeleteGrant(url string) error
}

// GrantFile keeps the grants in one file only the user reads (0600).
type GrantFile struct{ f jsonFile[*Grant] }

// NewGrantFile keeps grants in path.
func NewGrantFile(path string) *GrantFile { return &GrantFile{f: jsonFile[*Grant]{path: path}} }

func (g *GrantFile) Grant(url string) (*Grant, error) {
	v, _, err := g.f.get(url)
	return v, err
}

func (g *GrantFile) SaveGrant(url string, gr *Grant) error {
	return g.f.update(func(m map[string]*Grant) { m[url] = gr })
}

func (g *GrantFile) DeleteGrant(url string) error {
	return g.f.update(func(m map[string]*Grant) { delete(m, url) })
}

// URLs lists the servers' URLs a grant is kept for.
func (g *GrantFile) URLs() ([]string, error) { return g.f.keys() }

// oauth is the auth.OAuthHandler of one HTTP server: it sends the stored grant's access token, renewed with its
// refresh token (and the renewal stored), and on a 401 either fails with ErrSignIn or, when signing in (open set),
// runs the authorization-code flow with PKCE through the go-sdk's handler: the protected resource's metadata
// (RFC 9728, from the WWW-Authenticate challenge), the authorization server's (RFC 8414 or OpenID, its issuer
// checked), the client as a Client ID Metadata Document where the server takes one and registered dynamically
// (RFC 7591) otherwise, the browser sent to a redirect on a loopback port open for this sign-in alone.
type oauth struct {
	url    string
	grants Grants
	client *http.Client
	// clientIDURL is Rooted's Client ID Metadata Document, "" when none is published.
	clientIDURL string
	// open shows the user the authorization URL; nil when not signing in.
	open func(ctx context.Context, url string) error

	mu sync.Mutex
	ts oauth2.TokenSource
}

// newOAuth is the handler for url, with the stored grant's tokens when there is one.
func newOAuth(url string, grants Grants, client *http.Client, clientIDURL string) (*oauth, error) {
	if client == nil {
		client = http.DefaultClient
	}
	o := &oauth{url: url, grants: grants, client: client, clientIDURL: clientIDURL}
	g, err := grants.Grant(url)
	if err != nil {
		return nil, fmt.Errorf("reading the stored sign-in: %w", err)
	}
	if g != nil && g.Token != nil {
		o.ts = o.saving(g.config(), g.Token)
	}
	return o, nil
}

// TokenSource is the grant's, nil before a sign-in (auth.OAuthHandler).
func (o *oauth) TokenSource(context.Context) (oauth2.TokenSource, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.ts, nil
}

// Authorize answers the server's 401 (auth.OAuthHandler).
func (o *oauth) Authorize(ctx context.Context, req *http.Request, resp *http.Response) error {
	if o.open == nil {
		resp.Body.Close()
		return ErrSignIn
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		resp.Body.Close()
		return fmt.Errorf("opening the sign-in's redirect port: %w", err)
	}
	redirect := "http://127.0.0.1:" + strconv.Itoa(ln.Addr().(*net.TCPAddr).Port) + "/callback"
	results := make(chan answer, 1)
	srv := &http.Server{Handler: callback(results), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()

	cfg := &auth.AuthorizationCodeHandlerConfig{
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			RedirectURIs: []string{redirect}, ClientName: "Rooted", TokenEndpointAuthMethod: "none",
			GrantTypes: []string{"authorization_code", "refresh_token"}, ResponseTypes: []string{"code"},
		}},
		RedirectURL:           redirect,
		RequestRefreshToken:   true,
		AcceptUnadvertisedIss: true, // an iss that matches is no reason to refuse; one that does not always is
		Client:                o.client,
		AuthorizationCodeFetcher: func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
			if err := o.open(ctx, args.URL); err != nil {
				return nil, fmt.Errorf("opening the browser: %w", err)
			}
			select {
			case a := <-results:
				if a.refused != "" {
					return nil, fmt.Errorf("the authorization server refused: %s", a.refused)
				}
				return a.res, nil
			case <-ctx.Done():
				return nil, fmt.Errorf("no answer from the browser: %w", ctx.Err())
			}
		},
		NewTokenSource: func(ctx context.Context, c *oauth2.Config, t *oauth2.Token) (oauth2.TokenSource, error) {
			g := &Grant{
				ClientID: c.ClientID, ClientSecret: c.ClientSecret, AuthURL: c.Endpoint.AuthURL,
				TokenURL: c.Endpoint.TokenURL, AuthStyle: int(c.Endpoint.AuthStyle), Scopes: c.Scopes, Token: t,
			}
			if err := o.grants.SaveGrant(o.url, g); err != nil {
				return nil, fmt.Errorf("storing the sign-in: %w", err)
			}
			return o.saving(c, t), nil
		},
	}
	if o.clientIDURL != "" {
		cfg.ClientIDMetadataDocumentConfig = &auth.ClientIDMetadataDocumentConfig{URL: o.clientIDURL}
	}
	h, err := auth.NewAuthorizationCodeHandler(cfg)
	if err != nil {
		resp.Body.Close()
		return err
	}
	if err := h.Authorize(ctx, req, resp); err != nil {
		return err
	}
	ts, _ := h.TokenSource(ctx)
	o.mu.Lock()
	o.ts = ts
	o.mu.Unlock()
	return nil
}

// answer is what the redirect brought: a code (with its state and issuer), or why the server refused.
type answer struct {
	res     *auth.AuthorizationResult
	refused string
}

// callback is the redirect's handler: the first answer is the sign-in's. The state and the issuer are checked by
// the go-sdk's handler against what it sent.
func callback(results chan<- answer) http.Handler {
	var once sync.Once
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/callback" || r.Method != http.MethodGet {
			http.NotFound(w, r)
			return
		}
		q := r.URL.Query()
		a := answer{res: &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}}
		msg := "Signed in. You can close this tab and return to Rooted."
		if e := q.Get("error"); e != "" || a.res.Code == "" {
			a = answer{refused: strings.TrimSpace(e + " " + q.Get("error_description"))}
			if a.refused == "" {
				a.refused = "no code in the redirect"
			}
			msg = "Not signed in: " + a.refused
		}
		once.Do(func() { results <- a })
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<!doctype html><title>Rooted</title><p>%s</p>", html.EscapeString(msg))
	})
}

// saving is c's token source for t that stores each renewed token, so that a refresh survives Rooted's restart.
// A refresh the authorization server refuses (invalid_grant: revoked or expired) forgets the grant: the next 401
// asks the user to sign in again.
func (o *oauth) saving(c *oauth2.Config, t *oauth2.Token) oauth2.TokenSource {
	ctx := context.WithValue(context.Background(), oauth2.HTTPClient, o.client)
	return &savingSource{o: o, c: c, base: c.TokenSource(ctx, t), last: t.AccessToken}
}

type savingSource struct {
	o    *oauth
	c    *oauth2.Config
	base oauth2.TokenSource

	mu   sync.Mutex
	last string
}

func (s *savingSource) Token() (*oauth2.Token, error) {
	t, err := s.base.Token()
	if err != nil {
		var re *oauth2.RetrieveError
		if errors.As(err, &re) && re.ErrorCode == "invalid_grant" {
			_ = s.o.grants.DeleteGrant(s.o.url)
		}
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if t.AccessToken != s.last {
		s.last = t.AccessToken
		g := &Grant{
			ClientID: s.c.ClientID, ClientSecret: s.c.ClientSecret, AuthURL: s.c.Endpoint.AuthURL,
			TokenURL: s.c.Endpoint.TokenURL, AuthStyle: int(s.c.Endpoint.AuthStyle), Scopes: s.c.Scopes, Token: t,
		}
		if err := s.o.grants.SaveGrant(s.o.url, g); err != nil {
			return nil, fmt.Errorf("storing the renewed token: %w", err)
		}
	}
	return t, nil
}
