package mcpclient

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"

	"github.com/rooted-dev/rooted/backend/settings"
)

// ParseServers reads a project's mcp_servers as a user writes them (a JSON object of servers by name) and checks
// each: a name that can name its tools and folder, a command or a URL (http or https) but not both, absolute
// readable paths, no field Rooted does not know (a misspelt "netwrok" would silently grant nothing). An empty text
// is no servers.
func ParseServers(text []byte) (map[string]settings.MCPServer, error) {
	servers := map[string]settings.MCPServer{}
	if len(bytes.TrimSpace(text)) == 0 {
		return servers, nil
	}
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&servers); err != nil {
		return nil, fmt.Errorf("mcp_servers: %v", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("mcp_servers: text after the object")
	}
	for _, name := range sortedNames(servers) {
		if err := checkServer(name, servers[name]); err != nil {
			return nil, fmt.Errorf("mcp_servers: %s: %v", name, err)
		}
	}
	return servers, nil
}

func checkServer(name string, s settings.MCPServer) error {
	if !serverName().MatchString(name) {
		return fmt.Errorf("a server's name is letters, digits, - and _ (at most 40)")
	}
	switch {
	case s.Command != "" && s.URL != "":
		return fmt.Errorf(`name a "command" or a "url", not both`)
	case s.Command == "" && s.URL == "":
		return fmt.Errorf(`name a "command" (a program to start) or a "url" (a Streamable HTTP endpoint)`)
	case s.URL != "":
		u, err := url.Parse(s.URL)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return fmt.Errorf("url %q is not an http or https URL", s.URL)
		}
		if s.Network || s.WriteProject || len(s.Readable) > 0 || len(s.Env) > 0 || len(s.EnvVars) > 0 {
			return fmt.Errorf(`network, write_project, readable, env and env_vars are for a program; a "url" server runs elsewhere`)
		}
	case len(s.Headers) > 0:
		return fmt.Errorf(`headers are for a "url" server`)
	}
	for _, k := range s.EnvVars {
		if !varName().MatchString(k) {
			return fmt.Errorf("env_vars: %q is not a variable's name", k)
		}
	}
	for _, part := range []struct {
		what string
		m    map[string]string
	}{{"env", s.Env}, {"headers", s.Headers}} {
		for _, k := range sortedNames(part.m) {
			if err := checkRefs(part.m[k]); err != nil {
				return fmt.Errorf("%s %s: %v", part.what, k, err)
			}
		}
	}
	for _, p := range s.Readable {
		if !filepath.IsAbs(p) {
			return fmt.Errorf("readable path %q is not absolute", p)
		}
	}
	if s.TimeoutMS < 0 {
		return fmt.Errorf("timeout_ms cannot be negative")
	}
	return nil
}
