package mcpserver

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkMCPReadFile is one read_file call of a 10 KiB file through the MCP server (in-memory transport: the
// protocol's encoding and dispatch, not a pipe), against the same call on the registry directly.
func BenchmarkMCPReadFile(b *testing.B) {
	dir := b.TempDir()
	b.Setenv("XDG_CONFIG_HOME", b.TempDir())
	b.Setenv("XDG_CACHE_HOME", b.TempDir())
	os.WriteFile(filepath.Join(dir, "a.go"), []byte(strings.Repeat("package main // some Go code\n", 350)), 0o644)
	s, err := New(Options{Root: dir})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	b.Run("registry", func(b *testing.B) {
		for b.Loop() {
			if _, e := s.registry.Call(context.Background(), "read_file", []byte(`{"path":"a.go"}`)); e != nil {
				b.Fatal(e)
			}
		}
	})
	b.Run("mcp", func(b *testing.B) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		st, ct := mcp.NewInMemoryTransports()
		go s.Run(ctx, st)
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, ct, nil)
		if err != nil {
			b.Fatal(err)
		}
		defer cs.Close()
		for b.Loop() {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "read_file", Arguments: map[string]any{"path": "a.go"}})
			if err != nil || res.IsError {
				b.Fatal(err, res)
			}
		}
	})
}
