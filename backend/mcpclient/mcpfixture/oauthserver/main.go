// Command oauthserver is the browser tests' OAuth fixture: an authorization server and an MCP server that needs its
// tokens (mcpfixture.AuthServer, ProtectedServer), on loopback ports. It prints {"mcp": URL, "issuer": URL} on one
// line and serves until its standard input closes. It is not part of Rooted.
package main

import (
	"encoding/json"
	"io"
	"os"

	"github.com/rooted-dev/rooted/backend/mcpclient/mcpfixture"
)

func main() {
	a := mcpfixture.StartAuthServer()
	defer a.Close()
	url, stop := mcpfixture.StartProtectedServer(a)
	defer stop()
	_ = json.NewEncoder(os.Stdout).Encode(map[string]string{"mcp": url, "issuer": a.URL})
	_, _ = io.Copy(io.Discard, os.Stdin)
}
