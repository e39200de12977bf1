package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/conversations"
	"github.com/rooted-dev/rooted/backend/session"
)

// The CLI reads the store the window writes: it lists, shows and exports the same text the window exports.
func TestConversationsCommand(t *testing.T) {
	t.Parallel()
	root, data := t.TempDir(), t.TempDir()
	s, err := session.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	info, _ := s.Info()
	s.Close()
	store := conversations.ForProject(data, info.Root)
	big := strings.Repeat("a line the model read\n", 1000)
	user, _ := json.Marshal(map[string]any{"kind": "user", "id": "u", "text": "Read notes.txt"})
	tool, _ := json.Marshal(map[string]any{"kind": "tool", "id": "t", "name": "read_file", "input": map[string]any{"path": "notes.txt"}, "state": "done", "output": map[string]any{"content": big}})
	answer, _ := json.Marshal(map[string]any{"kind": "assistant", "id": "a", "text": "It is a list of lines."})
	if _, err := store.Append("c1", []conversations.Event{{T: "title", Title: "Reading notes"}, {T: "item", I: 0, Item: user}, {T: "item", I: 1, Item: tool}, {T: "item", I: 2, Item: answer}}); err != nil {
		t.Fatal(err)
	}
	var window bytes.Buffer
	if err := store.Export(&window, "c1", conversations.Markdown); err != nil {
		t.Fatal(err)
	}

	code, out, errOut := run(t, "", "conversations", "list", "--root", root, "--data", data)
	if code != ExitOK || !strings.Contains(out, "c1") || !strings.Contains(out, "Reading notes") {
		t.Errorf("list: %d %q %q", code, out, errOut)
	}
	code, out, _ = run(t, "", "conversations", "show", "c1", "--root", root, "--data", data)
	if code != ExitOK || out != window.String() || !strings.Contains(out, big) {
		t.Errorf("show differs from the window's export (%d):\n%.300s", code, out)
	}
	file := filepath.Join(t.TempDir(), "c1.json")
	code, _, errOut = run(t, "", "conversations", "export", "c1", "--format", "json", "-o", file, "--root", root, "--data", data)
	if code != ExitOK {
		t.Fatalf("export: %d %s", code, errOut)
	}
	var exported struct {
		Title string
		Body  struct{ Items []map[string]any }
	}
	b, _ := os.ReadFile(file)
	if err := json.Unmarshal(b, &exported); err != nil || exported.Title != "Reading notes" || len(exported.Body.Items) != 3 {
		t.Errorf("exported json: %v %+v", err, exported)
	}
	for _, tt := range []struct {
		args []string
		code int
	}{
		{[]string{"conversations", "show", "nope", "--root", root, "--data", data}, ExitToolError},
		{[]string{"conversations", "show", "../x", "--root", root, "--data", data}, ExitToolError},
		{[]string{"conversations", "export", "c1", "--format", "pdf", "--root", root, "--data", data}, ExitUsage},
		{[]string{"conversations", "frob", "--root", root}, ExitUsage},
		{[]string{"conversations"}, ExitUsage},
	} {
		if code, out, errOut := run(t, "", tt.args...); code != tt.code {
			t.Errorf("%v: exit %d (%q %q), want %d", tt.args, code, out, errOut, tt.code)
		}
	}
}
