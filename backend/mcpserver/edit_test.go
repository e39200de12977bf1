package mcpserver

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// An MCP session is long-lived: like the window's agent, it must read a file before it may change it, and a dry
// run shows the diff without changing anything.
func TestMCPEditsRequireARead(t *testing.T) {
	dir := project(t)
	s, err := New(Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, s)
	raw := func(name string, args map[string]any) (*mcp.CallToolResult, string) {
		t.Helper()
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: protocol error %v", name, err)
		}
		return res, res.Content[0].(*mcp.TextContent).Text
	}
	orig, _ := os.ReadFile(filepath.Join(dir, "src", "main.go"))
	patch := map[string]any{"path": "src/main.go", "search": `"hello"`, "replace": `"bye"`}
	if res, text := raw("patch_file", patch); !res.IsError || !strings.Contains(text, "not_read") {
		t.Errorf("patch of an unread file: %v %s", res.IsError, text)
	}
	if res, text := raw("write_file", map[string]any{"path": "src/main.go", "content": "x"}); !res.IsError || !strings.Contains(text, "not_read") {
		t.Errorf("write over an unread file: %v %s", res.IsError, text)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "src", "main.go")); string(b) != string(orig) {
		t.Fatalf("a refused edit changed the file: %s", b)
	}
	if res, text := raw("read_file", map[string]any{"path": "src/main.go"}); res.IsError {
		t.Fatal(text)
	}
	patch["dry_run"] = true
	if res, text := raw("patch_file", patch); res.IsError || !strings.Contains(text, `+func main() { println(\"bye\") }`) && !strings.Contains(text, `+func main() { println("bye") }`) {
		t.Errorf("dry run: %v %s", res.IsError, text)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "src", "main.go")); string(b) != string(orig) {
		t.Fatalf("a dry run changed the file: %s", b)
	}
	delete(patch, "dry_run")
	if res, text := raw("patch_file", patch); res.IsError {
		t.Errorf("patch after a read: %s", text)
	}
}
