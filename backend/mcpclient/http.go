package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rooted-dev/rooted/backend/settings"
)

// httpTransport is a Streamable HTTP connection to cfg.URL that sends cfg.Headers, their references resolved,
// with every request, and the user's OAuth grant for the URL when the server asks for one.
func (s *server) httpTransport(cfg settings.MCPServer) (mcp.Transport, error) {
	client, err := s.m.httpClient(cfg)
	if err != nil {
		return nil, err
	}
	t := &mcp.StreamableClientTransport{Endpoint: cfg.URL, HTTPClient: client}
	if s.m.opts.Grants != nil {
		o, err := newOAuth(cfg.URL, s.m.opts.Grants, s.m.opts.HTTPClient, s.m.opts.ClientIDMetadataURL)
		if err != nil {
			return nil, err
		}
		t.OAuthHandler = o
	}
	return t, nil
}

// httpClient sends cfg's headers with every request.
func (m *Manager) httpClient(cfg settings.MCPServer) (*http.Client, error) {
	headers, err := m.resolver().expandAll("header", cfg.Headers)
	if err != nil {
		return nil, err
	}
	base := http.DefaultTransport
	if m.opts.HTTPClient != nil && m.opts.HTTPClient.Transport != nil {
		base = m.opts.HTTPClient.Transport
	}
	return &http.Client{Transport: headerTransport{headers: headers, base: base}}, nil
}

type headerTransport struct {
	headers map[string]string
	base    http.RoundTripper
}

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h.headers {
		r.Header.Set(k, v)
	}
	return h.base.RoundTrip(r)
}

// SignIn signs the user in to the HTTP server name with OAuth: open shows the authorization URL (the window opens
// the system browser; the CLI prints it), and the sign-in waits for the redirect back, at most SignInTimeout. The
// grant is stored (Options.Grants) for every project that names the same URL, and the server starts afresh with it.
func (m *Manager) SignIn(ctx context.Context, name string, open func(ctx context.Context, url string) error) error {
	proj, err := m.config()
	if err != nil {
		return err
	}
	cfg, ok := proj.MCPServers[name]
	switch {
	case !ok:
		return fmt.Errorf("no server %q in this project's settings", name)
	case cfg.URL == "":
		return fmt.Errorf("%q is a program, not an HTTP server: there is nothing to sign in to", name)
	case m.opts.Grants == nil:
		return errors.New("no place to keep a sign-in here")
	}
	client, err := m.httpClient(cfg)
	if err != nil {
		return err
	}
	o, err := newOAuth(cfg.URL, m.opts.Grants, m.opts.HTTPClient, m.opts.ClientIDMetadataURL)
	if err != nil {
		return err
	}
	o.open = open
	ctx, cancel := context.WithTimeout(ctx, SignInTimeout)
	defer cancel()
	// Asked without a token, the server answers 401 with where to sign in (RFC 9728).
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, cfg.URL, strings.NewReader(`{"jsonrpc":"2.0","id":0,"method":"ping"}`))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("reaching %s: %w", cfg.URL, err)
	}
	if resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusForbidden {
		resp.Body.Close()
		return fmt.Errorf("%s did not ask for a sign-in (it answered %s)", cfg.URL, resp.Status)
	}
	if err := o.Authorize(ctx, req, resp); err != nil {
		return fmt.Errorf("signing in to %s: %w", cfg.URL, err)
	}
	if s := m.server(name); s != nil {
		s.stop()
		s.ensure(ctx)
	}
	return nil
}

// SignOut forgets the user's grant for the HTTP server name, and ends its connection.
func (m *Manager) SignOut(name string) error {
	proj, err := m.config()
	if err != nil {
		return err
	}
	cfg, ok := proj.MCPServers[name]
	if !ok || cfg.URL == "" || m.opts.Grants == nil {
		return fmt.Errorf("no HTTP server %q in this project's settings", name)
	}
	if err := m.opts.Grants.DeleteGrant(cfg.URL); err != nil {
		return err
	}
	if s := m.server(name); s != nil {
		s.stop()
	}
	m.changed()
	return nil
}
