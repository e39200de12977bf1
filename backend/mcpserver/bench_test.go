package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
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
	s, err := New(Options{Root: dir, MaxResultBytes: -1})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	b.Run("registry", func(b *testing.B) {
		for b.Loop() {
			if _, e := s.current().Registry().Call(context.Background(), "read_file", []byte(`{"path":"a.go"}`)); e != nil {
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

// BenchmarkStartToInitialize is what a client waits for when it starts the server: New on a project of 5,000
// files in 250 folders, then initialize over pipes. Preparing the project (index, watcher, first snapshot) runs
// behind it, so the figure does not grow with the project.
func BenchmarkStartToInitialize(b *testing.B) {
	dir := b.TempDir()
	b.Setenv("XDG_CONFIG_HOME", b.TempDir())
	b.Setenv("XDG_CACHE_HOME", b.TempDir())
	for i := range 250 {
		d := filepath.Join(dir, fmt.Sprintf("pkg%03d", i))
		os.MkdirAll(d, 0o755)
		for j := range 20 {
			os.WriteFile(filepath.Join(d, fmt.Sprintf("f%02d.go", j)), []byte("package p\n"), 0o644)
		}
	}
	initialize := []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}` + "\n")
	for b.Loop() {
		s, err := New(Options{Root: dir, MaxResultBytes: -1})
		if err != nil {
			b.Fatal(err)
		}
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		go s.Run(context.Background(), &Transport{Reader: inR, Writer: outW})
		go inW.Write(initialize)
		if line, err := bufio.NewReader(outR).ReadBytes('\n'); err != nil || !bytes.Contains(line, []byte(`"result"`)) {
			b.Fatalf("initialize: %s %v", line, err)
		}
		b.StopTimer()
		inW.Close()
		s.Close()
		b.StartTimer()
	}
}

// BenchmarkSyncTools is what following the user's settings adds to every tools/list (and to each change of the
// settings file): reading the settings and comparing the registry's offered tools with those declared, on a
// settings file that names a search endpoint.
func BenchmarkSyncTools(b *testing.B) {
	b.Setenv("XDG_CONFIG_HOME", b.TempDir())
	b.Setenv("XDG_CACHE_HOME", b.TempDir())
	path := filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "rooted", "settings.json")
	os.MkdirAll(filepath.Dir(path), 0o700)
	os.WriteFile(path, []byte(`{"user": {"search_endpoint": "http://localhost:8888"}}`), 0o600)
	s, err := New(Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	if !s.isListed("web_search") {
		b.Fatal("web_search is not listed with an endpoint")
	}
	for b.Loop() {
		s.syncTools()
	}
}
