package tools

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/rooted-dev/rooted/backend/tool"
)

// Each conversation's agent edits only what it has read itself: a second conversation on the same open project
// gets not_read for a file only the first one read, and once it reads the file and changes it, the first one's
// record is stale.
func TestReadsBelongToTheirConversation(t *testing.T) {
	reg, root := editRegistry(t, map[string]string{"f.txt": "theirs\n"}, false)
	in := func(conv, name, args string) *tool.Error {
		t.Helper()
		_, terr := reg.Call(tool.InConversation(context.Background(), conv), name, []byte(args))
		return terr
	}
	content := func() string { b, _ := os.ReadFile(filepath.Join(root, "f.txt")); return string(b) }

	if terr := in("a", "read_file", `{"path": "f.txt"}`); terr != nil {
		t.Fatal(terr)
	}
	for _, e := range []struct{ name, args string }{
		{"patch_file", `{"path": "f.txt", "search": "theirs", "replace": "b's"}`},
		{"write_file", `{"path": "f.txt", "content": "b's\n"}`},
	} {
		for _, conv := range []string{"b", ""} {
			if terr := in(conv, e.name, e.args); terr == nil || terr.Code != tool.CodeNotRead {
				t.Errorf("%s by conversation %q, which never read the file: %v, want not_read", e.name, conv, terr)
			}
		}
	}
	if got := content(); got != "theirs\n" {
		t.Fatalf("an unread edit changed the file to %q", got)
	}

	if terr := in("a", "patch_file", `{"path": "f.txt", "search": "theirs", "replace": "a's"}`); terr != nil {
		t.Fatalf("the conversation that read the file: %v", terr)
	}
	if terr := in("b", "read_file", `{"path": "f.txt"}`); terr != nil {
		t.Fatal(terr)
	}
	if terr := in("b", "write_file", `{"path": "f.txt", "content": "b's longer\n"}`); terr != nil {
		t.Fatalf("after its own read: %v", terr)
	}
	if terr := in("a", "patch_file", `{"path": "f.txt", "search": "b's", "replace": "a's again"}`); terr == nil || terr.Code != tool.CodeStaleFile {
		t.Fatalf("conversation a patching what b changed since a read it: %v, want stale_file", terr)
	}
	if got := content(); got != "b's longer\n" {
		t.Fatalf("the file holds %q", got)
	}
}
