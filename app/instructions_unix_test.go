//go:build unix

package app

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// The agent's system prompt gets the project's instruction files, as other agents read them: AGENTS.md at the
// root (CLAUDE.md only where there is no AGENTS.md), and in every folder down to the working directory; each
// capped; never a file reached through a link out of the project, never a pipe; and the user's own instructions.
func TestInstructionsForTheSystemPrompt(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "secret.md")
	os.WriteFile(outside, []byte("SECRET"), 0o600)
	files := map[string]string{
		"AGENTS.md":                       "Run make test before you finish.",
		"CLAUDE.md":                       "ignored: AGENTS.md is there",
		".github/copilot-instructions.md": "ignored too",
		"svc/CLAUDE.md":                   "svc: use the logger, never fmt.Println",
		"svc/api/AGENTS.md":               strings.Repeat("x", 20<<10),
		"svc/api/v2/keep.go":              "package v2",
		"other/AGENTS.md":                 "not on the way to the working directory",
	}
	for name, content := range files {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644)
	}
	os.Symlink(outside, filepath.Join(dir, "svc/api/v2/AGENTS.md"))
	if err := syscall.Mkfifo(filepath.Join(dir, "svc/api/v2/CLAUDE.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	svc := openServices(t)
	if _, err := svc.Projects.Open(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Tools.Call(cur(t, svc), "change_working_directory", `{"path":"svc/api/v2"}`); err != nil {
		t.Fatal(err)
	}
	v, err := svc.Settings.Instructions(cur(t, svc))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range v.Files {
		got = append(got, f.Path)
		if strings.Contains(f.Content, "SECRET") || strings.Contains(f.Content, "ignored") {
			t.Errorf("%s: %q", f.Path, f.Content)
		}
	}
	if strings.Join(got, ",") != "AGENTS.md,svc/CLAUDE.md,svc/api/AGENTS.md" {
		t.Fatalf("files read: %v", got)
	}
	if big := v.Files[2]; !big.Truncated || len(big.Content) != 16<<10 || big.Size != 20<<10 {
		t.Errorf("a 20 KiB file: truncated %v, %d of %d bytes", big.Truncated, len(big.Content), big.Size)
	}
	if v.Files[0].Content != files["AGENTS.md"] || v.Files[0].Truncated {
		t.Errorf("root AGENTS.md: %+v", v.Files[0])
	}

	// The user's own instructions, saved in Settings, apply to every project.
	if _, err := svc.Settings.SaveUserInstructions(cur(t, svc), strings.Repeat("y", 17<<10)); err == nil || !strings.Contains(err.Error(), `"invalid_argument"`) {
		t.Errorf("17 KiB of user instructions: %v", err)
	}
	v, err = svc.Settings.SaveUserInstructions(cur(t, svc), "  Answer in British English.\n")
	if err != nil || v.User != "Answer in British English." || len(v.Files) != 3 {
		t.Errorf("saved: %+v %v", v, err)
	}
	if v, _ := svc.Settings.Instructions(cur(t, svc)); v.User != "Answer in British English." {
		t.Errorf("read back: %q", v.User)
	}
}
