// Package becomemcp makes "rooted mcp" become the MCP server beside it (rooted-mcp) before the rest of rooted
// initialises: an agent starts the server at every session and waits for its handshake, and rooted's own package
// initialisation, of no use to the server, took about 10 ms of it. Imported by cmd/rooted alone, for its side
// effect; its import path sorts it ahead of rooted's other packages, which Go initialises in that order once
// their imports are.
package becomemcp

// Name is the MCP server's executable (cli.MCPName, which this package cannot import without initialising it).
const Name = "rooted-mcp"
