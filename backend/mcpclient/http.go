package mcpclient

import (
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rooted-dev/rooted/backend/settings"
)

// httpTransport is a Streamable HTTP connection to cfg.URL that sends cfg.Headers, their references resolved,
// with every request.
func (s *server) httpTransport(cfg settings.MCPServer) (mcp.Transport, error) {
	headers, err := s.m.resolver().expandAll("header", cfg.Headers)
	if err != nil {
		return nil, err
	}
	client := &http.Client{Transport: headerTransport{headers: headers, base: http.DefaultTransport}}
	return &mcp.StreamableClientTransport{Endpoint: cfg.URL, HTTPClient: client}, nil
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
