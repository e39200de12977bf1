package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/session"
)

// The tool-level benchmarks measure a whole call as the agent makes it: validation, path resolution, the file
// work, stale-file bookkeeping and the JSON result.

// benchRegistry returns a caller that runs a tool with arguments encoded once, outside the timed loop.
func benchRegistry(b *testing.B) (call func(name string, args []byte), root string) {
	root = b.TempDir()
	s, err := session.Open(root)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	reg := Registry(Deps{Session: s})
	return func(name string, args []byte) {
		if _, e := reg.Call(context.Background(), name, args); e != nil {
			b.Fatal(e)
		}
	}, root
}

func args(b *testing.B, v any) []byte {
	raw, err := json.Marshal(v)
	if err != nil {
		b.Fatal(err)
	}
	return raw
}

func megabyte() string {
	line := "the quick brown fox jumps over the lazy dog\n"
	half := strings.Repeat(line, (1<<20)/len(line)/2)
	return half + "NEEDLE\n" + half
}

func BenchmarkReadFileTool1MB(b *testing.B) {
	call, root := benchRegistry(b)
	content := megabyte()
	os.WriteFile(filepath.Join(root, "f.txt"), []byte(content), 0o644)
	b.SetBytes(int64(len(content)))
	in := args(b, map[string]any{"path": "f.txt"})
	for b.Loop() {
		call("read_file", in)
	}
}

func BenchmarkWriteFileTool1MB(b *testing.B) {
	call, _ := benchRegistry(b)
	content := megabyte()
	b.SetBytes(int64(len(content)))
	in := args(b, map[string]any{"path": "f.txt", "content": content})
	for b.Loop() {
		call("write_file", in)
	}
}

func BenchmarkPatchFileTool1MB(b *testing.B) {
	call, root := benchRegistry(b)
	content := megabyte()
	os.WriteFile(filepath.Join(root, "f.txt"), []byte(content), 0o644)
	b.SetBytes(int64(len(content)))
	there := args(b, map[string]any{"path": "f.txt", "search": "NEEDLE", "replace": "HAYSTK"})
	back := args(b, map[string]any{"path": "f.txt", "search": "HAYSTK", "replace": "NEEDLE"})
	i := 0
	for b.Loop() {
		if i++; i%2 == 1 {
			call("patch_file", there)
		} else {
			call("patch_file", back)
		}
	}
}
