package app

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The user's own saves in the window's editor are snapshotted, are refused when the file is no longer what the
// editor loaded, and never count as the agent having read the file: the agent's edit based on its older read is
// refused as stale.
func TestUserSaveMakesTheAgentsEditStale(t *testing.T) {
	dir := t.TempDir()
	orig := "package calc\n\nfunc Add(a, b int) int { return a - b }\n"
	os.WriteFile(filepath.Join(dir, "calc.go"), []byte(orig), 0o644)
	svc := openServices(t)
	if _, err := svc.Projects.Open(dir); err != nil {
		t.Fatal(err)
	}
	// The agent reads the file.
	if _, err := svc.Tools.Call(cur(t, svc), "read_file", `{"path":"calc.go"}`); err != nil {
		t.Fatal(err)
	}
	// The user opens it in the editor and saves an edit over what was loaded.
	if _, err := svc.Tools.UserCall(cur(t, svc), "read_file", `{"path":"calc.go"}`); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(orig))
	mine := strings.Replace(orig, "a - b", "a + b", 1)
	args, _ := json.Marshal(map[string]string{"path": "calc.go", "content": mine, "expected_sha256": hex.EncodeToString(sum[:])})
	out, err := svc.Tools.UserCall(cur(t, svc), "write_file", string(args))
	if err != nil {
		t.Fatal(err)
	}
	var w struct{ Backup string }
	json.Unmarshal([]byte(out), &w)
	if w.Backup == "" {
		t.Errorf("the user's save took no snapshot: %s", out)
	}
	// Saving again over the original content: what the editor loaded is gone.
	args, _ = json.Marshal(map[string]string{"path": "calc.go", "content": "x", "expected_sha256": hex.EncodeToString(sum[:])})
	if _, err := svc.Tools.UserCall(cur(t, svc), "write_file", string(args)); err == nil || !strings.Contains(err.Error(), `"stale_file"`) {
		t.Errorf("a save over content that changed since it was loaded: %v", err)
	}
	// The agent's patch, from its read before the user's edit, is refused.
	_, err = svc.Tools.Call(cur(t, svc), "patch_file", `{"path":"calc.go","search":"func Add","replace":"func Sum"}`)
	if err == nil || !strings.Contains(err.Error(), `"stale_file"`) {
		t.Errorf("the agent's edit after the user's save: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "calc.go")); string(b) != mine {
		t.Errorf("file now %q, want the user's edit", b)
	}
	// The window's own calls are only reads and saves.
	if _, err := svc.Tools.UserCall(cur(t, svc), "exec_shell", `{"command":"ls"}`); err == nil {
		t.Error("exec_shell as a user call")
	}
}
