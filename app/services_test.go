package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The window's wiring end to end, without a window: open a project (watcher, background first snapshot), edit
// through a tool call, see the backup's diff, restore it.
func TestEditBackupDiffRestoreAsTheWindowDoes(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "README.md"), []byte("# Demo\n"), 0o644)
	svc := openServices(t)
	if _, err := svc.Projects.Open(dir); err != nil {
		t.Fatal(err)
	}
	call := func(name string, args any) map[string]any {
		t.Helper()
		b, _ := json.Marshal(args)
		out, err := svc.Tools.Call(cur(t, svc), name, string(b))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var m map[string]any
		json.Unmarshal([]byte(out), &m)
		return m
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		list := call("list_snapshots", map[string]any{})
		if snaps, _ := list["snapshots"].([]any); len(snaps) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the first snapshot never appeared")
		}
		time.Sleep(20 * time.Millisecond)
	}
	call("read_file", map[string]any{"path": "README.md"}) // an edit replaces what the agent has read
	w := call("write_file", map[string]any{"path": "README.md", "content": "# Changed\n"})
	id, _ := w["backup"].(string)
	if len(id) != 40 {
		t.Fatalf("write: %v", w)
	}
	d := call("diff_snapshot", map[string]any{"id": id})
	if diff, _ := d["diff"].(string); !strings.Contains(diff, "-# Demo") || !strings.Contains(diff, "+# Changed") {
		t.Fatalf("diff: %v", d)
	}
	r := call("restore_snapshot", map[string]any{"id": id})
	if b, _ := os.ReadFile(filepath.Join(dir, "README.md")); string(b) != "# Demo\n" {
		t.Fatalf("after restore: %q (%v)", b, r)
	}
}
